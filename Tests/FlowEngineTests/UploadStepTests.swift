import FlowDSL
import FlowDigest
import FlowEngine
import FlowHTTP
import FlowSandbox
import FlowTasks
import Foundation
import Testing

/// `upload` steps against the in-process sandbox: both protocols, byte-exact on the server
/// (checked by the server's own sha256), resuming after connections dropped mid-chunk.
///
/// A class suite: each test gets its own instance, so its own sandbox and folder, made in `init`
/// and let go in `deinit` (the sandbox is stopped without being awaited, as elsewhere in the tests).
@Suite(.serialized) final class UploadStepTests {
    private let harness: WorkflowHarness
    private let folder: URL

    init() async throws {
        harness = try await WorkflowHarness.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        let (harness, folder) = (harness, folder)
        Task { await harness.stop() }
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func contentRangeUploadIsByteExactWhenTheChunkSizeDoesNotDivideTheFile() async throws {
        let file = try makeFile("data.bin", size: 3 * 1024 * 1024 + 17)
        let (records, _) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/cr/odd", protocol: "content-range", chunkSize: "256KiB"))
        let result = try succeededResult(records["up"])
        #expect(try result["sha256"] == .string(sha256(of: file)))
        #expect(result["bytes"] == .number(3 * 1024 * 1024 + 17))
        #expect(result["status"] == .number(200))
        try await assertServerHolds(file, at: "BASE/uploads/cr/odd/info")
        let puts = harness.sandbox.events().filter { $0.method == "PUT" }
        #expect(puts.count == 13, "3 MiB + 17 bytes in 256 KiB chunks is 13 chunks")
    }

    @Test func tusUploadIsByteExactWhenTheChunkSizeDividesTheFile() async throws {
        let file = try makeFile("data.bin", size: 2 * 1024 * 1024)
        let (records, _) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/tus", protocol: "tus", chunkSize: "512KiB"))
        let result = try succeededResult(records["up"])
        #expect(try result["sha256"] == .string(sha256(of: file)))
        guard case .string(let location)? = result["location"] else { Issue.record("no location: \(result)"); return }
        #expect(location.hasPrefix(harness.sandbox.baseURL + "/uploads/tus/"), "\(location)")
        let events = harness.sandbox.events()
        try await assertServerHolds(file, at: location + "/info")
        #expect(events.map(\.method).filter { $0 != "PATCH" }.sorted() == ["OPTIONS", "POST"])
        #expect(events.filter { $0.method == "PATCH" }.count == 4)
    }

    /// The creation does not wait for OPTIONS (a round trip before the first chunk): both go out
    /// together, and with the server holding its OPTIONS answer 2 s the POST still arrives before
    /// that answer. The chunks wait for it, so each carries `Upload-Checksum` (sha256, offered and
    /// checked by the sandbox), the first one included, whatever answer comes first.
    @Test func tusCreatesTheUploadWithoutWaitingForTheOptionsAnswer() async throws {
        let file = try makeFile("data.bin", size: 300_000)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              up:
                timeout: 30s
                upload:
                  file: \(file.path)
                  url: BASE/uploads/tus?hold-options-ms=2000
                  protocol: tus
                  chunk-size: 100KiB
            """)
        let result = try succeededResult(records["up"])
        guard case .string(let location)? = result["location"] else { Issue.record("no location: \(result)"); return }
        try await assertServerHolds(file, at: location + "/info")
        let events = harness.sandbox.events()
        let options = try #require(events.first { $0.method == "OPTIONS" })
        let post = try #require(events.first { $0.method == "POST" })
        #expect(options.endedAt == nil || post.startedAt < options.endedAt!, "the POST went before OPTIONS' answer")
        let patches = events.filter { $0.method == "PATCH" }
        #expect(patches.count == 3)
        #expect(
            patches.allSatisfy { $0.headers["Upload-Checksum"]?.hasPrefix("sha256 ") == true },
            "\(patches.map(\.headers))")
    }

    /// With the checksum extension offered, every chunk carries `Upload-Checksum` (sha256, which
    /// the sandbox offers and checks), the first one included.
    @Test func tusChunksCarryAChecksumOnceTheServerOffersIt() async throws {
        let file = try makeFile("data.bin", size: 300_000)
        let (records, _) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/tus?pace-ms=100", protocol: "tus", chunkSize: "100KiB"))
        _ = try succeededResult(records["up"])
        let patches = harness.sandbox.events().filter { $0.method == "PATCH" }
        #expect(patches.count == 3)
        #expect(
            patches.allSatisfy { $0.headers["Upload-Checksum"]?.hasPrefix("sha256 ") == true },
            "\(patches.map(\.headers))")
    }

    @Test func contentRangeResumesFromTheServersOffsetAfterADropMidChunk() async throws {
        let file = try makeFile("data.bin", size: 5_000_000)
        let (records, lines) = try await harness.run(
            uploadYAML(
                file: file, url: "BASE/uploads/cr/dropped?drop-at=3", protocol: "content-range", chunkSize: "1MiB"))
        let result = try succeededResult(records["up"])
        #expect(records["up"]?.output?.attempts == 2)
        #expect(try result["sha256"] == .string(sha256(of: file)))
        try await assertServerHolds(file, at: "BASE/uploads/cr/dropped/info")
        #expect(lines.contains { $0.contains("the server holds") }, "\(lines)")
        // Nothing the server kept was sent again, and nothing is missing: the third 1 MiB chunk was
        // dropped halfway and its first half (524,288 bytes) stayed on the server, so the chunks it
        // accepted (308 or 200) carry exactly the rest. (The dropped request's own count may
        // include bytes read past the drop point and thrown away; a chunk libcurl sent again on a
        // fresh connection is refused with 416.)
        let accepted = harness.sandbox.events().filter { $0.method == "PUT" && [200, 308].contains($0.status) }
        #expect(accepted.map(\.bytesReceived).reduce(0, +) == 5_000_000 - 524_288)
    }

    @Test func tusResumesFromTheServersOffsetAfterADropMidChunk() async throws {
        let file = try makeFile("data.bin", size: 3_000_001)
        let (records, lines) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/tus?drop-at=2", protocol: "tus", chunkSize: "700KiB"))
        let result = try succeededResult(records["up"])
        #expect(try result["sha256"] == .string(sha256(of: file)))
        guard case .string(let location)? = result["location"] else { Issue.record("no location"); return }
        try await assertServerHolds(file, at: location + "/info")
        #expect(lines.contains { $0.contains("the server holds") }, "\(lines)")
        #expect(harness.sandbox.events().contains { $0.method == "HEAD" }, "the offset is asked with HEAD")
    }

    /// An earlier run stopped after three chunks (Ctrl-C): the next run to the same URL continues
    /// after what the server holds instead of failing forever.
    @Test func aRunAfterAnInterruptedContentRangeUploadContinuesIt() async throws {
        let file = try makeFile("data.bin", size: 1_000_000)
        let bytes = try Data(contentsOf: file)
        let url = harness.sandbox.baseURL + "/uploads/cr/interrupted"
        for chunk in 0..<3 {
            let first = chunk * 65_536
            var request = HTTPRequest(
                method: "PUT", url: url, body: .bytes(Array(bytes[first..<first + 65_536])))
            request.headers.set("Content-Range", "bytes \(first)-\(first + 65_535)/1000000")
            let response = try await harness.client.execute(request).value
            #expect(response.status == 308)
        }
        let (records, lines) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/cr/interrupted", protocol: "content-range", chunkSize: "64KiB"))
        let result = try succeededResult(records["up"])
        #expect(try result["sha256"] == .string(sha256(of: file)))
        try await assertServerHolds(file, at: "BASE/uploads/cr/interrupted/info")
        #expect(
            lines.contains { $0.contains("the server already holds 196608 of 1000000 bytes (left by an earlier run)") },
            "\(lines)")
    }

    /// Running a finished upload again: the server's sha256 shows it holds this very file.
    @Test func aRunAfterAFinishedContentRangeUploadIsConfirmedByTheServersHash() async throws {
        let file = try makeFile("data.bin", size: 300_000)
        let yaml = uploadYAML(file: file, url: "BASE/uploads/cr/twice", protocol: "content-range", chunkSize: "64KiB")
        _ = try succeededResult(try await harness.run(yaml).0["up"])
        let (records, lines) = try await harness.run(yaml)
        let result = try succeededResult(records["up"])
        #expect(try result["sha256"] == .string(sha256(of: file)))
        #expect(lines.contains { $0.contains("the server says the upload is already complete") }, "\(lines)")
    }

    @Test func theRetryBudgetBoundsRecovery() async throws {
        let file = try makeFile("data.bin", size: 300_000)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              up:
                retry: 1
                upload:
                  file: \(file.path)
                  url: BASE/uploads/cr/budget?drop-at=2
                  protocol: content-range
                  chunk-size: 100KiB
            """)
        let error = try #require(records["up"]?.error as? StepError)
        #expect(
            error.message.contains("gave up after 1 attempt without progress, at byte 102400 of 300000"),
            "\(error.message)")
    }

    @Test func emptyFilesUploadWithBothProtocols() async throws {
        let file = try makeFile("empty.txt", size: 0)
        let emptySHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        for (name, url) in [("content-range", "BASE/uploads/cr/empty"), ("tus", "BASE/uploads/tus")] {
            let (records, _) = try await harness.run(
                uploadYAML(file: file, url: url, protocol: name, chunkSize: "1KiB"))
            let result = try succeededResult(records["up"])
            #expect(result["sha256"] == .string(emptySHA), "\(name)")
            #expect(result["bytes"] == .number(0), "\(name)")
        }
        try await assertServerHolds(file, at: "BASE/uploads/cr/empty/info")
    }

    @Test func aRefusingServerFailsAtOnceWithTheStatusAndTheStep() async throws {
        let file = try makeFile("data.bin", size: 1000)
        let (records, _) = try await harness.run(
            uploadYAML(file: file, url: "BASE/status/403", protocol: "content-range", chunkSize: "1KiB"))
        let record = try #require(records["up"])
        #expect(record.state == .failed)
        let error = try #require(record.error as? StepError)
        #expect(error.message.contains("expected 308 or 2xx, got 403 Forbidden"), "\(error.message)")
        #expect(error.message.contains("bytes 0-999/1000"), "\(error.message)")
        #expect(error.location.line == 4, "points at upload:")
        #expect(harness.sandbox.events().count == 1, "a 403 is final: no retry")
    }

    @Test func tusCreationRefusedIsAClearError() async throws {
        let file = try makeFile("data.bin", size: 10)
        let (records, _) = try await harness.run(
            uploadYAML(file: file, url: "BASE/status/404", protocol: "tus", chunkSize: "1KiB"))
        let error = try #require(records["up"]?.error as? StepError)
        #expect(error.message.contains("expected 201 Created, got 404 Not Found"), "\(error.message)")
    }

    @Test func aFileChangedDuringTheUploadFailsInsteadOfSendingATornFile() async throws {
        let file = try makeFile("data.bin", size: 4 * 1024 * 1024)
        let path = file.path
        let changed = LockedBox(false)
        let (records, _) = try await harness.run(
            // Paced (5 ms a chunk) so the upload is still going when the file changes, on any machine.
            uploadYAML(
                file: file, url: "BASE/uploads/cr/torn?pace-ms=5", protocol: "content-range", chunkSize: "64KiB"),
            onEvent: { event in
                guard case .progress(.bytes(let done, _, _)) = event.kind, done > 0 else { return }
                guard
                    changed.withLock({ flag in
                        defer { flag = true }; return !flag
                    })
                else { return }
                let handle = FileHandle(forWritingAtPath: path)!
                handle.seekToEndOfFile()
                handle.write(Data("more".utf8))
                handle.closeFile()
            })
        let error = try #require(records["up"]?.error as? StepError)
        #expect(error.message.contains("changed while it was being uploaded"), "\(error.message)")
        #expect(error.message.contains("its size went from 4194304 to 4194308 bytes"), "\(error.message)")
    }

    @Test func aMissingFileIsNamedWithItsPlace() async throws {
        let (records, _) = try await harness.run(
            uploadYAML(
                file: folder.appendingPathComponent("nope.bin"), url: "BASE/uploads/cr/x", protocol: "content-range",
                chunkSize: "1KiB"))
        let error = try #require(records["up"]?.error as? StepError)
        #expect(error.message.contains("nope.bin"), "\(error.message)")
        #expect(error.message.contains("No such file"), "\(error.message)")
        #expect(error.location.line == 5, "points at file:")
        #expect(harness.sandbox.events().isEmpty, "nothing was sent")
    }

    @Test func aCancelledTusUploadIsDeletedOnTheServer() async throws {
        let file = try makeFile("big.bin", size: 48 * 1024 * 1024)
        let progressed = LockedBox(false)
        let (records, lines) = try await harness.run(
            uploadYAML(file: file, url: "BASE/uploads/tus", protocol: "tus", chunkSize: "16KiB"),
            onEvent: { event in
                if case .progress(.bytes(let done, _, _)) = event.kind, done > 0 { progressed.withLock { $0 = true } }
            },
            whileRunning: { run in
                while !progressed.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
                run.cancel()
            })
        #expect(records["up"]?.state == .cancelled)
        let line = try #require(lines.first { $0.contains("deleting the partial upload") }, "\(lines)")
        #expect(line.contains("(tus termination)"), "\(line)")
        // The run ended after the DELETE had been answered: the upload is gone. (The sandbox notes
        // a request's status once its body is written, which may be just after flow read it.)
        var delete = harness.sandbox.events().first { $0.method == "DELETE" }
        for _ in 0..<500 where delete != nil && delete?.endedAt == nil {
            try await Task.sleep(for: .milliseconds(10))
            delete = harness.sandbox.events().first { $0.method == "DELETE" }
        }
        #expect(try #require(delete).status == 204)
    }

    // MARK: Helpers

    private func uploadYAML(file: URL, url: String, protocol name: String, chunkSize: String) -> String {
        """
        version: 1
        steps:
          up:
            upload:
              file: \(file.path)
              url: \(url)
              protocol: \(name)
              chunk-size: \(chunkSize)
        """
    }

    private func makeFile(_ name: String, size: Int) throws -> URL {
        // Random bytes in a block of prime length, repeated: any shifted or repeated range changes
        // the sha256, and large files are quick to make.
        var generator = SystemRandomNumberGenerator()
        let block = (0..<min(size, 1_000_003)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var data = Data(capacity: size)
        while data.count < size { data.append(contentsOf: block.prefix(size - data.count)) }
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    private func sha256(of file: URL) throws -> String {
        SHA256.hash(data: try Data(contentsOf: file)).map { String(format: "%02x", $0) }.joined()
    }

    private func succeededResult(_ record: StepRecord<StepResult>?) throws -> [String: Value] {
        let record = try #require(record)
        #expect(record.state == .succeeded, "\(String(describing: record.error))")
        guard case .object(let fields)? = record.output?.result else {
            throw HarnessError(message: "no result: \(String(describing: record.error))")
        }
        return fields
    }

    /// The sandbox's own account of the upload: complete, the file's size, the file's sha256.
    private func assertServerHolds(_ file: URL, at infoURL: String) async throws {
        let url = URL(string: infoURL.replacingOccurrences(of: "BASE", with: harness.sandbox.baseURL))!
        let response = try await harness.client.execute(.init(url: url.absoluteString)).value
        let info = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        #expect(info["complete"] as? Bool == true)
        #expect(try info["size"] as? Int == Data(contentsOf: file).count)
        #expect(try info["sha256"] as? String == sha256(of: file))
    }
}
