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

    /// `flow run --resume` of a run killed mid-download: the journal holds the download's session
    /// (`flow runs show` lists it, with the bytes on disk), the resumed `GET` asks for the rest
    /// with `Range`, and the file is byte-exact.
    @Test func aKilledRunsDownloadIsInTheJournalAndResumeContinuesIt() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let size = 2_000_000
        let file = dir.appendingPathComponent("journaled.yaml").path
        try """
        version: 1
        steps:
          first:
            run: echo first
          fetch:
            needs: first
            http:
              url: "\(sandbox.baseURL)/downloads/\(size)?key=journaled&slow-ms=${{ env.SLOW }}"
              save-to: out/big.bin
              resume: true
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let final = dir.appendingPathComponent("out/big.bin").standardizedFileURL.path
        let partial = dir.appendingPathComponent("out/.big.bin.flow-partial").path

        // 16 KiB every 50 ms: about 6 s for the whole body; killed once 600 KB are on disk.
        let first = try FlowChild(["run", file], environment: ["SLOW": "50"])
        let started = await FlowChild.wait(for: .seconds(30)) { Self.size(of: partial) > 600_000 }
        kill(first.pid, SIGKILL)
        _ = await first.exitCode(within: .seconds(10))
        #expect(started, "the first run wrote no partial file: \(first.output)\(first.errors)")
        let left = Self.size(of: partial)

        let listing = try await FlowProcess.run(["runs", file, "--format", "json"])
        let runs = (try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?["runs"]
        let id = try #require((runs as? [[String: Any]])?.first?["id"] as? String, "\(listing.stdout)")
        let killed = try await Self.transfers(id, file: file)
        #expect(killed.count == 1, "\(killed)")
        #expect(killed.first?["kind"] as? String == "download" && killed.first?["target"] as? String == final)
        let recorded = killed.first?["bytesConfirmed"] as? Int ?? -1
        // Recorded every 256 KiB: at most that much behind what the file held when it was killed.
        #expect(recorded > 0 && recorded <= left && left - recorded <= 256 * 1024 + 64 * 1024, "\(recorded) of \(left)")

        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["SLOW": "0"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(resumed.stderr.contains("1 step kept (first)"), "\(resumed.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: final))
        #expect(data.count == size && Array(data) == DownloadContent.bytes(0..<size))

        let (body, _) = try await URLSession.shared.data(from: URL(string: sandbox.baseURL + "/downloads/log")!)
        let log = (try JSONSerialization.jsonObject(with: body) as? [[String: Any]] ?? [])
            .filter { $0["key"] as? String == "journaled" }
        #expect(log.count == 2, "\(log)")
        let range = log.last?["range"] as? String ?? ""
        let resumedAt = Int(range.dropFirst("bytes=".count).dropLast()) ?? -1
        #expect(resumedAt >= left && resumedAt < size, "\(log)")
        #expect(log.last?["status"] as? Int == 206, "\(log)")

        let done = try await Self.transfers(id, file: file)
        #expect(done.first?["bytesConfirmed"] as? Int == size, "\(done)")
        let shown = try await FlowProcess.run(["runs", "show", id, file])
        #expect(shown.stdout.contains("fetch: download \(final), \(size) bytes confirmed"), "\(shown.stdout)")
    }

    /// `flow runs show ID FILE --format json`'s transfers.
    private static func transfers(_ id: String, file: String) async throws -> [[String: Any]] {
        let shown = try await FlowProcess.run(["runs", "show", id, file, "--format", "json"])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        return document?["transfers"] as? [[String: Any]] ?? []
    }

    private static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
