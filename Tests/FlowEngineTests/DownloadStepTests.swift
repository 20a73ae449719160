import FlowDSL
import FlowEngine
import FlowSandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bodies as bytes: `save-to` (atomic, resumable), `result.base64`, `max-body` and compressed
/// responses, against the sandbox's `/downloads/{n}` and `/gzip/{n}`.
@Suite struct DownloadStepTests {
    private func message(_ record: StepRecord<StepResult>?) -> String {
        record?.error.map { "\($0)" } ?? ""
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func files(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// What the sandbox's download log holds for `key`.
    private func logged(_ harness: WorkflowHarness, key: String) async throws -> [[String: String]] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: harness.sandbox.baseURL + "/downloads/log")!)
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.filter { $0["key"] as? String == key }.map { entry in
            entry.compactMapValues { value in (value as? String) ?? (value as? Int).map(String.init) }
        }
    }

    @Test func aBinaryBodyIsKeptByteForByte() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sha = DownloadContent.sha256(count: 20_000)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              saved:
                http: { url: "BASE/downloads/20000", save-to: "\(dir.path)/sub/blob.bin" }
                expect:
                  assert:
                    - result.bytes == 20000
                    - result.sha256 == '\(sha)'
                outputs:
                  file: ${{ result.file }}
              inline:
                http: { url: "BASE/downloads/20000" }
                expect:
                  assert: [ result.bytes == 20000 ]
                outputs:
                  b64: ${{ result.base64 }}
              text:
                http: { url: "BASE/bytes/5" }
                expect:
                  assert: [ "length(result.body) == 5", result.bytes == 5 ]
              read-as-text:
                http: { url: "BASE/downloads/20000" }
                outputs:
                  body: ${{ result.body }}
            """)
        #expect(records["saved"]?.state == .succeeded, "\(message(records["saved"]))")
        #expect(records["saved"]?.output?.outputs["file"] == .string("\(dir.path)/sub/blob.bin"))
        let saved = try Data(contentsOf: dir.appendingPathComponent("sub/blob.bin"))
        #expect(Array(saved) == DownloadContent.bytes(0..<20_000))
        #expect(files(in: dir.appendingPathComponent("sub")) == ["blob.bin"], "no partial file is left")
        #expect(records["inline"]?.state == .succeeded, "\(message(records["inline"]))")
        guard case .string(let b64)? = records["inline"]?.output?.outputs["b64"] else {
            Issue.record("no base64 output")
            return
        }
        #expect(Data(base64Encoded: b64).map(Array.init) == DownloadContent.bytes(0..<20_000))
        #expect(records["text"]?.state == .succeeded, "\(message(records["text"]))")
        #expect(records["read-as-text"]?.state == .failed)
        let error = message(records["read-as-text"])
        #expect(error.contains("binary") && error.contains("save-to") && error.contains("result.base64"), "\(error)")
    }

    @Test func aFailedDownloadLeavesNoFileUnderTheFinalName() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              cut:
                http:
                  url: "BASE/downloads/50000?key=atomic&drop-after=20000&drops=always"
                  save-to: "\(dir.path)/out.bin"
            """)
        #expect(records["cut"]?.state == .failed)
        #expect(files(in: dir).isEmpty, "neither the file nor its partial file: \(files(in: dir))")
    }

    @Test func aDroppedDownloadResumesWithRangeAndIfRange() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sha = DownloadContent.sha256(count: 300_000)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "BASE/downloads/300000?key=drop&drop-after=100000"
                  save-to: "\(dir.path)/out.bin"
                  resume: true
                retry: { attempts: 3, delay: 10ms }
                expect:
                  assert: [ "result.sha256 == '\(sha)'", result.bytes == 300000 ]
            """)
        #expect(records["fetch"]?.state == .succeeded, "\(message(records["fetch"]))")
        #expect(records["fetch"]?.output?.attempts == 2)
        let requests = try await logged(harness, key: "drop")
        #expect(requests.count == 2, "\(requests)")
        // The first attempt's drop may cut anywhere after the server's 100,000 bytes were sent;
        // what matters is that the second asked for the rest, naming the ETag.
        let second = requests.last ?? [:]
        #expect(second["range"]?.hasPrefix("bytes=") == true && second["range"] != "bytes=0-", "\(second)")
        #expect(second["ifRange"] == "\"n300000-1\"", "\(second)")
        #expect(second["status"] == "206", "\(second)")
        #expect(files(in: dir) == ["out.bin"])
    }

    /// A body of several megabytes is hashed a megabyte behind the writes, on another thread;
    /// dropped midway and resumed, its sha256 is still the whole file's.
    @Test func aLargeBodyDroppedMidwayHasTheWholeFilesSha256() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let count = 5 * 1024 * 1024 + 3
        let sha = DownloadContent.sha256(count: count)
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "BASE/downloads/\(count)?key=large&drop-after=3000000"
                  save-to: "\(dir.path)/large.bin"
                  resume: true
                retry: { attempts: 3, delay: 10ms }
                expect:
                  assert: [ "result.sha256 == '\(sha)'", result.bytes == \(count) ]
            """)
        #expect(records["fetch"]?.state == .succeeded, "\(message(records["fetch"]))")
        #expect(records["fetch"]?.output?.attempts == 2)
        #expect(files(in: dir) == ["large.bin"])
    }

    @Test func aChangedOrShorterResourceStartsOverFromZero() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // What a killed run of an older version left: 5,000 wrong bytes and that version's ETag.
        try Data(repeating: 0xEE, count: 5_000).write(to: dir.appendingPathComponent(".changed.bin.flow-partial"))
        try "\"n40000-1\"".write(
            to: dir.appendingPathComponent(".changed.bin.flow-partial.validator"), atomically: true, encoding: .utf8)
        // A partial file longer than the resource: the server answers 416.
        try Data(repeating: 0xEE, count: 9_000).write(to: dir.appendingPathComponent(".short.bin.flow-partial"))
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              changed:
                http:
                  url: "BASE/downloads/40000?key=changed&version=2"
                  save-to: "\(dir.path)/changed.bin"
                  resume: true
                expect:
                  assert: [ "result.sha256 == '\(DownloadContent.sha256(count: 40_000))'" ]
              short:
                http:
                  url: "BASE/downloads/8000?key=short"
                  save-to: "\(dir.path)/short.bin"
                  resume: true
                expect:
                  assert: [ "result.sha256 == '\(DownloadContent.sha256(count: 8_000))'" ]
            """)
        #expect(records["changed"]?.state == .succeeded, "\(message(records["changed"]))")
        #expect(records["short"]?.state == .succeeded, "\(message(records["short"]))")
        let changed = try await logged(harness, key: "changed")
        #expect(changed.first?["range"] == "bytes=5000-" && changed.first?["ifRange"] == "\"n40000-1\"", "\(changed)")
        #expect(changed.first?["status"] == "200", "the old ETag no longer matches: \(changed)")
        let short = try await logged(harness, key: "short")
        #expect(short.map { $0["status"] } == ["416", "200"], "\(short)")
        #expect(files(in: dir) == ["changed.bin", "short.bin"])
    }

    @Test func bodiesPastMaxBodyFailNamingItAndSaveTo() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            defaults:
              http: { max-body: 64KiB }
            steps:
              plain:
                http: { url: "BASE/downloads/100000" }
              compressed:
                http: { url: "BASE/gzip/1000000" }
              decoded:
                http: { url: "BASE/gzip/100000", max-body: 200KB }
                expect:
                  assert:
                    - length(result.body) == 100000
                    - result.headers['content-encoding'] == 'gzip'
            """)
        for id in ["plain", "compressed"] {
            #expect(records[id]?.state == .failed)
            let error = message(records[id])
            #expect(error.contains("max-body (64KiB") && error.contains("save-to"), "\(id): \(error)")
        }
        #expect(records["decoded"]?.state == .succeeded, "\(message(records["decoded"]))")
    }

    @Test func aValueTooLongForACommandSaysWhatToDoInstead() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              fetch:
                http: { url: "BASE/bytes/300000" }
                outputs:
                  body: ${{ result.body }}
              use:
                needs: fetch
                run: printf '%s' "${{ steps.fetch.outputs.body }}" | wc -c
            """)
        #expect(records["use"]?.state == .failed)
        let error = message(records["use"])
        #expect(error.contains("Argument list too long") && error.contains("save-to"), "\(error)")
    }
}
