import FlowSandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `save-to` download with `resume: true` continues, in the next `flow run`, from what a run
/// killed with SIGKILL left behind.
@Suite struct DownloadResumeTests {
    @Test func aKilledRunsDownloadContinuesWithRangeInTheNextRun() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = 1_000_000
        let file = dir.appendingPathComponent("download.yaml").path
        try """
        version: 1
        inputs:
          slow: { type: number, default: 0 }
        steps:
          fetch:
            http:
              url: "\(sandbox.baseURL)/downloads/\(size)?key=killed&slow-ms=${{ inputs.slow }}"
              save-to: out/big.bin
              resume: true
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let partial = dir.appendingPathComponent("out/.big.bin.flow-partial").path

        // 16 KiB every 50 ms: about 3 s for the whole body, so the kill lands mid-download.
        let first = try FlowChild(["run", file, "--input", "slow=50"])
        let started = await FlowChild.wait(for: .seconds(30)) { Self.size(of: partial) > 100_000 }
        kill(first.pid, SIGKILL)
        _ = await first.exitCode(within: .seconds(10))
        #expect(started, "the first run wrote no partial file: \(first.output)\(first.errors)")
        let left = Self.size(of: partial)
        #expect(left > 0 && left < size)
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/big.bin").path))

        // The dry run shows where the body goes and what a resume would ask for.
        let plan = try await FlowProcess.run(["run", file, "--dry-run"])
        #expect(plan.stdout.contains("save-to \(dir.path)/out/big.bin"), "\(plan.stdout)")
        #expect(
            plan.stdout.contains("resume: \(left) bytes are there; the request adds Range: bytes=\(left)-"),
            "\(plan.stdout)")

        let second = try await FlowProcess.run(["run", file])
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
        let data = try Data(contentsOf: dir.appendingPathComponent("out/big.bin"))
        #expect(data.count == size && Array(data) == DownloadContent.bytes(0..<size))
        #expect(!FileManager.default.fileExists(atPath: partial))

        let (body, _) = try await URLSession.shared.data(from: URL(string: sandbox.baseURL + "/downloads/log")!)
        let log = (try JSONSerialization.jsonObject(with: body) as? [[String: Any]] ?? [])
            .filter { $0["key"] as? String == "killed" }
        #expect(log.count == 2, "\(log)")
        let range = log.last?["range"] as? String ?? ""
        // At least what the killed run had on disk when it was measured: the resume starts there or later.
        let resumedAt = Int(range.dropFirst("bytes=".count).dropLast()) ?? -1
        #expect(resumedAt >= left && resumedAt < size, "\(log)")
        #expect(log.last?["status"] as? Int == 206, "\(log)")
        #expect(log.last?["ifRange"] as? String == "\"n\(size)-1\"", "\(log)")
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
