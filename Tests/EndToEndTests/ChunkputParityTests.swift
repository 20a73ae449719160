import FlowSandbox
import Foundation
import Testing

/// `bench/chunkput.c`, the minimal libcurl client `bench/chunkput.sh` measures flow against, sends
/// the requests flow sends for the same upload (issue 32): the same methods, the same position and
/// checksum headers, the same bytes, each chunk on one kept-alive connection. A ratio against a
/// program doing less work (no tus discovery, no `Upload-Checksum` for the server to verify) would
/// say nothing about flow.
@Suite(.serialized) struct ChunkputParityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(.timeLimit(.minutes(2)), arguments: ["cr", "tus"])
    func theProgramSendsFlowsRequests(protocol name: String) async throws {
        let scratch = try ResumeRunTests.Scratch()
        let program = scratch.path("chunkput")
        let built = try await Self.compile(to: program)
        #expect(built.status == 0, "cc bench/chunkput.c: \(built.output)")
        var bytes = [UInt8](repeating: 0, count: 250_000)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        let file = scratch.path("data.bin")
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let url = name == "cr" ? "\(sandbox.baseURL)/uploads/cr/same" : "\(sandbox.baseURL)/uploads/tus"

        let workflow = try scratch.write(
            "\(name).yaml",
            """
            version: 1
            steps:
              upload:
                upload:
                  file: "\(file)"
                  url: "\(url)"
                  protocol: \(name == "cr" ? "content-range" : "tus")
                  chunk-size: 100KiB
            """)
        let flow = try await FlowProcess.run(["run", workflow, "--no-journal"])
        #expect(flow.exitCode == 0, "flow: \(flow.stderr)")
        let flowSent = Self.requests(await Self.settled(sandbox))
        sandbox.reset()

        let ran = try await Self.run(program, [name, url, file, "102400"])
        #expect(ran.status == 0, "chunkput: \(ran.output)")
        let programSent = Self.requests(await Self.settled(sandbox))

        #expect(programSent == flowSent, "flow sent \(flowSent), the program \(programSent)")
        #expect(programSent.filter { $0.hasPrefix(name == "cr" ? "PUT" : "PATCH") }.count == 3)
    }

    /// The sandbox's events once each request's end is recorded: the sandbox records it after
    /// the answer went out, so a client that exits at the last answer can be faster (CI saw the
    /// program's last PATCH without its status).
    static func settled(_ sandbox: Sandbox) async -> [SandboxEvent] {
        var events = sandbox.events()
        for _ in 0..<200 where !events.allSatisfy({ $0.endedAt != nil }) {
            try? await Task.sleep(for: .milliseconds(10))
            events = sandbox.events()
        }
        return events
    }

    /// Each request as what must be the same: method, path (an upload's id replaced), the position
    /// and checksum headers (a checksum's algorithm only: its value is of the chunk), the bytes
    /// received and the status; sorted, since flow sends tus `OPTIONS` beside the creation.
    static func requests(_ events: [SandboxEvent]) -> [String] {
        events.map { event in
            let path = event.path.hasPrefix("/uploads/tus/") ? "/uploads/tus/<id>" : event.path
            let headers = event.headers.sorted { $0.key < $1.key }.map { name, value in
                name == "Upload-Checksum" ? "\(name): \(value.prefix { $0 != " " })" : "\(name): \(value)"
            }
            return "\(event.method) \(path) [\(headers.joined(separator: ", "))] \(event.bytesReceived) bytes → "
                + (event.status.map(String.init) ?? "none")
        }.sorted()
    }

    /// Builds bench/chunkput.c as bench/chunkput.sh does.
    static func compile(to output: String) async throws -> (status: Int32, output: String) {
        try await run(
            "/usr/bin/cc",
            ["-O2", "-Wall", "-o", output, root.appendingPathComponent("bench/chunkput.c").path, "-lcurl", "-lcrypto"])
    }

    /// Runs `executable` off the concurrency pool (the sandbox answers on it), with its output.
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await FlowProcess.runTool(URL(fileURLWithPath: executable), arguments)
    }
}
