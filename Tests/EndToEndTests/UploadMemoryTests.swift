import FlowSandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An upload's memory is bounded by its chunk size, whatever the file's size: measured as the
/// peak resident memory (VmHWM) of a real `flow run` sending 200 MiB to a tus server that takes
/// checksums (`flow sandbox`: each chunk is hashed before it is sent, and kept to be sent).
@Suite(.serialized) struct UploadMemoryTests {
    static let mebibyte = 1 << 20

    @Test func a200MiBTusUploadWithChecksumsIn8MiBChunksPeaksUnder64MiB() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-memory-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let data = folder.appendingPathComponent("big.bin")
        let sha256 = try Self.writeFile(data, mebibytes: 200)
        let upload = try await Self.peakMemory(
            of: """
                send:
                  upload:
                    file: "\(data.path)"
                    url: "\(sandbox.baseURL)/uploads/tus"
                    protocol: tus
                    chunk-size: 8MiB
                """, in: folder)
        // What the same flow holds without uploading anything: the chunk is what is added to it.
        let idle = try await Self.peakMemory(of: "idle: { run: 'true' }", in: folder)
        #expect(upload.peak > 0 && upload.peak <= 64 * Self.mebibyte, "peak \(upload.peak / Self.mebibyte) MiB")
        #expect(
            upload.peak - idle.peak <= 16 * Self.mebibyte,
            "peak \(upload.peak / Self.mebibyte) MiB, \(idle.peak / Self.mebibyte) MiB without the upload")
        // The server holds the file, sent in 25 chunks.
        let patches = sandbox.events().filter { $0.method == "PATCH" }
        #expect(patches.count == 25, "\(patches.count) chunks: \(upload.output)")
        let id = try #require(patches.first?.path.split(separator: "/").last.map(String.init))
        let (body, _) = try await URLSession.shared.data(
            from: URL(string: "\(sandbox.baseURL)/uploads/tus/\(id)/info")!)
        let info = String(decoding: body, as: UTF8.self)
        #expect(info.contains("\"complete\":true") && info.contains(sha256), "\(info)")
    }

    /// The peak resident memory of `flow run` on a workflow of `steps` (YAML, indented as under
    /// `steps:`), read from /proc while a last step holds flow open after them, and flow's output.
    private static func peakMemory(of steps: String, in folder: URL) async throws -> (peak: Int, output: String) {
        let marker = folder.appendingPathComponent("held-\(UUID())").path
        let workflow = folder.appendingPathComponent("workflow-\(UUID()).yaml")
        let indented = steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let ids = steps.split(separator: "\n").filter { !$0.hasPrefix(" ") }.compactMap {
            $0.split(separator: ":").first
        }
        try """
        version: 1
        steps:
        \(indented)
          hold:
            needs: [\(ids.joined(separator: ", "))]
            run: "touch '\(marker)'; sleep 60"
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let flow = try FlowChild(["run", "--no-journal", workflow.path])
        let held = await FlowChild.wait(for: .seconds(240)) { FileManager.default.fileExists(atPath: marker) }
        let peak = flow.peakMemory ?? 0
        kill(flow.pid, SIGINT)
        _ = await flow.exitCode(within: .seconds(30))
        #expect(held, "\(flow.output)\n\(flow.errors)")
        return (peak, flow.output + flow.errors)
    }

    /// Writes `mebibytes` MiB of varied bytes a MiB at a time (never the whole file in memory);
    /// their sha256 in hex.
    private static func writeFile(_ url: URL, mebibytes: Int) throws -> String {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var piece = [UInt8](repeating: 0, count: mebibyte)
        for index in 0..<mebibytes {
            for at in stride(from: 0, to: piece.count, by: 8) {
                piece[at] = UInt8(truncatingIfNeeded: index &* 131 &+ at >> 3)
            }
            try handle.write(contentsOf: piece)
        }
        try handle.close()
        return try ResumeRunTests.sha256Hex(url.path)
    }
}
