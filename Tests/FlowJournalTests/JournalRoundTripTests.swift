import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

@Suite("Journal round trip")
struct JournalRoundTripTests {
    @Test("a run, its steps and transfers come back as recorded")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let started = Date(timeIntervalSince1970: 1_800_000_000)
        let id = try journal.beginRun(
            NewRun(
                file: "/w/deploy.yaml", fileHash: "f1", stepHashes: ["a": "h1", "b": "h2"],
                inputs: ["region": "eu"], startedAt: started))
        journal.record(.stepStarted(run: id, step: "a", item: nil, attempt: 1, at: started))
        journal.record(
            .stepFinished(
                run: id, step: "a", item: nil, state: .succeeded, attempts: 1, startedAt: started,
                finishedAt: started.addingTimeInterval(2), outputs: .json(#"{"x":1}"#), error: nil))
        journal.record(.stepStarted(run: id, step: "b", item: 3, attempt: 2, at: started.addingTimeInterval(3)))
        journal.record(.unsafeSend(run: id, step: "b", item: 3, at: started.addingTimeInterval(3)))
        journal.record(
            .transfer(
                run: id, step: "b", item: 3, kind: "tus", target: "http://h/files/1", bytesConfirmed: 1024,
                fileIdentity: "/tmp/f:2048:99"))
        try journal.flushAndWait()

        let detail = try #require(try journal.run(id: id))
        #expect(detail.fileHash == "f1")
        #expect(detail.stepHashes == ["a": "h1", "b": "h2"])
        #expect(detail.inputs == ["region": "eu"])
        #expect(detail.run.state == .running)
        // Steps by state, the items apart (b[3] is an item).
        #expect(detail.run.stepCounts == ["succeeded": 1])
        #expect(detail.run.itemCounts == ["running": 1])
        #expect(
            detail.steps == [
                JournalStep(
                    step: "a", item: nil, state: .succeeded, attempts: 1, startedAt: started,
                    finishedAt: started.addingTimeInterval(2), outputs: .json(#"{"x":1}"#), error: nil,
                    unsafeInFlight: false),
                JournalStep(
                    step: "b", item: 3, state: .running, attempts: 2, startedAt: started.addingTimeInterval(3),
                    finishedAt: nil, outputs: .none, error: nil, unsafeInFlight: true),
            ])
        #expect(
            detail.transfers == [
                JournalTransfer(
                    step: "b", item: 3, kind: "tus", target: "http://h/files/1", bytesConfirmed: 1024,
                    fileIdentity: "/tmp/f:2048:99")
            ])
    }
}

@Suite("Journal string maps")
struct JournalJSONTests {
    @Test("inputs with quotes, backslashes, control characters, slashes and non-ASCII come back as given")
    func awkwardTextRoundTrips() throws {
        let map = [
            "quote": #"say "hi""#, "back\\slash": #"C:\\temp\\"#, "lines": "a\nb\r\tc\u{1}\u{1F}",
            "url": "https://h/a/b", "ünï": "日本語 ✓", "": "",
        ]
        let text = JournalJSON.encode(map)
        #expect(try JournalJSON.decode(text) == map)
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] == map)
    }
}

@Suite("Journal file")
struct JournalFileTests {
    @Test("a journal is in WAL mode with synchronous NORMAL, from its first open and every later one")
    func walMode() throws {
        let folder = try TemporaryFolder()
        for _ in 0..<2 {
            let journal = try Journal.open(stateDirectory: folder.path)
            defer { journal.close() }
            let (mode, synchronous) = try journal.database.read { db in
                (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
            }
            #expect(mode == "wal")
            #expect(synchronous == 1, "NORMAL")
        }
    }
}

@Suite("Journal step hashes")
struct StepHashTextTests {
    @Test("step hashes come back as given: a shared start, none, non-ASCII, and tabs (kept as JSON)")
    func roundTrips() throws {
        let shared = Dictionary(
            uniqueKeysWithValues: (0..<500).map { ("s\($0)", "0123456789abcdef" + String($0, radix: 16)) })
        let text = StepHashText.encode(shared)
        #expect(try StepHashText.decode(text) == shared)
        #expect(text.utf8.count < JournalJSON.encode(shared).utf8.count / 2)
        for map in [
            [:], ["a": "1"], ["a": "é1", "b": "é2"], ["a": "x", "b": "y"], ["tab\tkey": "v", "k": "line\nbreak"],
        ] {
            #expect(try StepHashText.decode(StepHashText.encode(map)) == map, "\(map)")
        }
    }
    @Test("hashes built a step at a time read back as the map they make, ids with tabs included")
    func builtAStepAtATime() throws {
        var built = StepHashes(shared: "0123456789abcdef")
        var expected: [String: String] = [:]
        for (index, value) in [UInt64(0), 1, 15, 16, 0xdead_beef, .max].enumerated() {
            built.add(step: "s\(index)", hexDigitsOf: value)
            expected["s\(index)"] = "0123456789abcdef" + String(value, radix: 16)
        }
        built.add(step: "named", rest: "é")
        expected["named"] = "0123456789abcdefé"
        #expect(try StepHashText.decode(built.text) == expected)
        #expect(built.byStep == expected)
        // A tab in an id: from then on the list is a map, kept as JSON.
        built.add(step: "tab\tid", hexDigitsOf: 42)
        expected["tab\tid"] = "0123456789abcdef2a"
        #expect(try StepHashText.decode(built.text) == expected)
        #expect(StepHashes(expected).byStep == expected)
    }
}

@Suite("Journal runs")
struct JournalRunsTests {
    private func newRun(_ file: String, at seconds: Double) -> NewRun {
        NewRun(
            file: file, fileHash: "old", stepHashes: ["a": "1"], inputs: [:],
            startedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test("run ids: UTC start time to the second and four hex digits, unique")
    func runIDs() throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        // 2027-01-15 08:00:00 UTC.
        let ids = try (0..<40).map { _ in try journal.beginRun(newRun("/w/ids.yaml", at: 1_800_000_000)) }
        #expect(Set(ids).count == 40)
        for id in ids {
            #expect(id.hasPrefix("20270115-080000-"))
            #expect(id.count == 20)
            #expect(id.suffix(4).allSatisfy { $0.isHexDigit })
        }
    }

    @Test("runs are listed newest first, per file or all; a finished run keeps its state")
    func listing() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let first = try journal.beginRun(newRun("/w/a.yaml", at: 1_000))
        let second = try journal.beginRun(newRun("/w/b.yaml", at: 2_000))
        let third = try journal.beginRun(newRun("/w/a.yaml", at: 3_000))
        journal.record(.runFinished(run: first, state: .succeeded, at: Date(timeIntervalSince1970: 1_010)))
        journal.record(.runFinished(run: second, state: .failed, at: Date(timeIntervalSince1970: 2_010)))
        try await journal.flushed()
        #expect(try journal.runs(file: nil).map(\.id) == [third, second, first])
        #expect(try journal.runs(file: "/w/a.yaml").map(\.id) == [third, first])
        let listed = try journal.runs(file: "/w/a.yaml")
        #expect(listed.map(\.state) == [.running, .succeeded])
        #expect(listed[1].finishedAt == Date(timeIntervalSince1970: 1_010))
        #expect(try journal.runs(file: "/w/none.yaml").isEmpty)
        #expect(try journal.run(id: "20990101-000000-ffff") == nil)
    }

    @Test("reopenRun marks a failed run running again with the new hashes; an unknown id is an error")
    func reopen() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let id = try journal.beginRun(newRun("/w/r.yaml", at: 1_000))
        journal.record(.runFinished(run: id, state: .failed, at: Date(timeIntervalSince1970: 1_100)))
        try await journal.flushed()
        #expect(try journal.latestUnfinishedRun(file: "/w/r.yaml")?.run.id == id)
        try journal.reopenRun(id: id, fileHash: "new", stepHashes: ["a": "2"])
        let detail = try #require(try journal.run(id: id))
        #expect(detail.run.state == .running)
        #expect(detail.run.finishedAt == nil)
        #expect(detail.fileHash == "new")
        #expect(detail.stepHashes == ["a": "2"])
        // Running in this (live) process: not offered for another resume.
        #expect(try journal.latestUnfinishedRun(file: "/w/r.yaml") == nil)
        #expect(throws: JournalError.self) { try journal.reopenRun(id: "nope", fileHash: "x", stepHashes: [:]) }
    }

    @Test("a step started again after a failure starts afresh; the secret marker drops outputs")
    func restartAndSecretMarker() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let id = try journal.beginRun(newRun("/w/s.yaml", at: 1_000))
        let at = Date(timeIntervalSince1970: 1_001)
        journal.record(
            .stepFinished(
                run: id, step: "a", item: nil, state: .failed, attempts: 3, startedAt: at, finishedAt: at,
                outputs: .none, error: "HTTP 500"))
        journal.record(.stepStarted(run: id, step: "a", item: nil, attempt: 1, at: at.addingTimeInterval(5)))
        journal.record(
            .stepFinished(
                run: id, step: "b", item: 0, state: .succeeded, attempts: 1, startedAt: nil, finishedAt: at,
                outputs: .secret, error: nil))
        try await journal.flushed()
        let steps = try #require(try journal.run(id: id)).steps
        let a = try #require(steps.first { $0.step == "a" })
        #expect(a.state == .running)
        #expect(a.attempts == 1)
        #expect(a.error == nil)
        #expect(a.finishedAt == nil)
        #expect(a.startedAt == at.addingTimeInterval(5))
        let b = try #require(steps.first { $0.step == "b" })
        #expect(b.item == 0)
        #expect(b.outputs == .secret)
    }

    @Test("the state directory: --state-dir, then FLOW_STATE_DIR, then .flow beside the file or here")
    func location() {
        let here = FileManager.default.currentDirectoryPath
        #expect(
            JournalLocation.stateDirectory(explicit: "/x/state", workflowFile: "/w/a.yaml", environment: [:])
                == "/x/state")
        #expect(
            JournalLocation.stateDirectory(
                explicit: nil, workflowFile: "/w/a.yaml", environment: ["FLOW_STATE_DIR": "/env/state"])
                == "/env/state")
        #expect(
            JournalLocation.stateDirectory(explicit: nil, workflowFile: "/nowhere/w/a.yaml", environment: [:])
                == "/nowhere/w/.flow")
        #expect(JournalLocation.stateDirectory(explicit: nil, workflowFile: nil, environment: [:]) == here + "/.flow")
        #expect(JournalLocation.canonicalFile("sub/../a.yaml") == here + "/a.yaml")
    }
}
