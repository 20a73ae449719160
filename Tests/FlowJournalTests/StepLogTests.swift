import FlowTestSupport
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// Format 2 (and 3, a compact finish) keeps step changes as one `step_log` cell per run and batch: the runs an older flow
/// wrote (format 1, a row per step) still read, a damaged cell is a clear error, and a batch is a
/// few cells, not a row per step.
@Suite("Journal step log")
struct StepLogTests {
    @Test("a format-1 journal is migrated; its step rows read, with later changes applied on top")
    func formatOneRowsRead() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/journal.sqlite"
        // What an older flow left: format 1's tables, a run with two steps and a transfer.
        try Self.writeFormatOne(file)
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        #expect(try journal.reading { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 6)
        // A resume starts item 3 of b again.
        journal.record(
            .stepStarted(run: "old-run", step: "b", item: 3, attempt: 1, at: Date(timeIntervalSince1970: 20)))
        try await journal.flushed()

        let detail = try #require(try journal.run(id: "old-run"))
        #expect(detail.steps.map(\.step) == ["a", "b"])
        #expect(detail.steps[0].outputs == .json(#"{"status":"succeeded"}"#))
        #expect(detail.steps[1].item == 3 && detail.steps[1].state == .running && detail.steps[1].attempts == 1)
        #expect(detail.steps[1].startedAt == Date(timeIntervalSince1970: 20))
        #expect(detail.transfers.map(\.target) == ["http://h/files/1"])
        // Steps by state, the items apart (b[3] is an item).
        #expect(detail.run.stepCounts == ["succeeded": 1] && detail.run.itemCounts == ["running": 1])
        #expect(try journal.runs(file: "/w/old.yaml").map(\.stepCounts) == [["succeeded": 1]])
        #expect(try journal.runs(file: "/w/old.yaml").map(\.itemCounts) == [["running": 1]])
        // Format 1 kept the step hashes in the run's row.
        #expect(detail.stepHashes == ["a": "1", "b": "2"])
    }

    /// Format 1's tables with a run of two steps and a transfer, as an older flow wrote them.
    static func writeFormatOne(_ file: String) throws {
        let old = try DatabaseQueue(path: file)
        try old.write { db in
            try JournalSchema.createVersion1(db)
            try db.execute(sql: "PRAGMA user_version = 1")
            try db.execute(
                sql: """
                    INSERT INTO run (id, file, file_hash, step_hashes, inputs, state, started_at, pid,
                        pid_started, host)
                    VALUES ('old-run', '/w/old.yaml', 'h', '{"a":"1","b":"2"}', '{}', 'failed', 10, 1, 'x', 'h');
                    INSERT INTO step (run_id, step, item, state, attempts, started_at, finished_at, outputs_json)
                    VALUES ('old-run', 'a', -1, 'succeeded', 1, 11, 12, '{"status":"succeeded"}'),
                        ('old-run', 'b', 3, 'failed', 2, 13, 14, NULL);
                    INSERT INTO transfer (run_id, step, item, kind, target, bytes_confirmed, file_identity)
                    VALUES ('old-run', 'u', -1, 'tus', 'http://h/files/1', 100, 'f|1');
                    """)
        }
        try old.close()
    }

    @Test("outputs come back exactly: a state alone (kept as one byte), others, none, and the secret marker")
    func outputsRoundTrip() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/o.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        let cases: [(state: JournalStepState, outputs: JournalOutputs)] = [
            (.succeeded, .stateOnly),
            (.skipped, .stateOnly),
            // Text that happens to look like a record of its state alone is text all the same.
            (.succeeded, .json(#"{"outputs":{},"status":"succeeded"}"#)),
            (.succeeded, .json(#"{"outputs":{},"status":"skipped"}"#)),
            (.succeeded, .json(#"{"outputs":{"n":1},"status":"succeeded"}"#)),
            (.failed, .none),
            (.succeeded, .secret),
            (.cancelled, .stateOnly),
            (.pending, .stateOnly),
        ]
        for (index, item) in cases.enumerated() {
            journal.record(
                .stepFinished(
                    run: run, step: "s\(index)", item: nil, state: item.state, attempts: 1,
                    startedAt: Date(timeIntervalSince1970: Double(index)), finishedAt: Date(),
                    outputs: item.outputs, error: nil))
        }
        try await journal.flushed()
        let steps = try #require(try journal.run(id: run)).steps
        #expect(steps.map(\.outputs) == cases.map(\.outputs))
        #expect(steps.map(\.state) == cases.map(\.state))
        #expect(steps.map(\.startedAt) == cases.indices.map { Date(timeIntervalSince1970: Double($0)) })
    }

    @Test("a finish with its state alone is written in fewer bytes, and reads back the same")
    func compactFinish() async throws {
        var plain = StepLogEncoder()
        var general = StepLogEncoder()
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        plain.add(
            .stepFinished(
                run: "r", step: "build", item: nil, state: .succeeded, attempts: 2, startedAt: at, finishedAt: at,
                outputs: .stateOnly, error: nil))
        general.add(
            .stepFinished(
                run: "r", step: "build", item: nil, state: .succeeded, attempts: 2, startedAt: at, finishedAt: at,
                outputs: .stateOnly, error: "kept"))
        #expect(plain.bytes.first == StepLogTag.finishedStateOnly.rawValue)
        #expect(plain.bytes.count + 8 <= general.bytes.count, "\(plain.bytes.count) against \(general.bytes.count)")
        var decoder = StepLogDecoder(plain.bytes)
        guard
            case .finished(let key, let state, let attempts, let startedAt, _, let outputs, let error) =
                try decoder.next()
        else {
            Issue.record("not a finish")
            return
        }
        #expect(key.step == "build" && key.item == nil && state == .succeeded && attempts == 2)
        #expect(startedAt == at && outputs == .stateOnly && error == nil)
        #expect(try decoder.next() == nil)
    }

    @Test("a compact and a coded finish keep their bytes: the tag, id, item, code, attempts and dates they share")
    func finishBytes() {
        let at = Date(timeIntervalSince1970: 1_800_000_000.5)
        var log = StepLogEncoder()
        log.add(
            .stepFinished(
                run: "r", step: "tick", item: 300, state: .succeeded, attempts: 1, startedAt: at,
                finishedAt: at + 0.25, outputs: .stateOnly, error: nil))
        #expect(
            log.bytes == [
                5, 4, 116, 105, 99, 107, 173, 2, 0, 1, 1, 0, 0, 32, 128, 116, 210, 218, 65, 0, 0, 48, 128, 116, 210,
                218, 65,
            ])
        log = StepLogEncoder()
        log.add(
            .stepFinished(
                run: "r", step: "tick", item: 300, state: .failed, attempts: 2, startedAt: nil, finishedAt: at + 0.25,
                outputs: .json(#"{"item":300}"#), error: "late"))
        #expect(
            log.bytes == [
                6, 4, 116, 105, 99, 107, 173, 2, 1, 2, 0, 0, 0, 48, 128, 116, 210, 218, 65, 1, 12, 123, 34, 105, 116,
                101, 109, 34, 58, 51, 48, 48, 125, 0, 1, 4, 108, 97, 116, 101,
            ])
    }

    @Test(
        "compact finishes of every shape read back as written: long and non-ASCII ids, items, many attempts, no start",
        arguments: [
            ("build", nil, 1, true), ("é-步骤", 0, 300, false), (String(repeating: "s", count: 200), 1_000_000, 2, true),
            ("", nil, 0, false),
        ] as [(String, Int?, Int, Bool)])
    func compactFinishShapes(step: String, item: Int?, attempts: Int, started: Bool) async throws {
        var log = StepLogEncoder()
        let startedAt = started ? Date(timeIntervalSince1970: 1_800_000_000.25) : nil
        let finishedAt = Date(timeIntervalSince1970: 1_800_000_001.5)
        for state in StepLogEncoder.stateCodes {
            log.addFinished(
                step: step, item: item, state: state, attempts: attempts, startedAt: startedAt, finishedAt: finishedAt,
                outputs: .stateOnly, error: nil)
        }
        var decoder = StepLogDecoder(log.bytes)
        for expected in StepLogEncoder.stateCodes {
            guard
                case .finished(let key, let state, let count, let start, let end, let outputs, let error) =
                    try decoder.next()
            else {
                Issue.record("not a finish")
                return
            }
            #expect(key.step == step && key.item == item && state == expected && count == attempts)
            #expect(start == startedAt && end == finishedAt && outputs == .stateOnly && error == nil)
        }
        #expect(try decoder.next() == nil)
    }

    @Test("a damaged step log cell: a clear error naming the journal, not a crash")
    func damagedCell() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/d.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        journal.record(.stepStarted(run: run, step: "a", item: nil, attempt: 1, at: Date()))
        try await journal.flushed()
        let cell = try journal.reading { db in
            try Data.fetchOne(db, sql: "SELECT changes FROM step_log WHERE run_id = ?", arguments: [run])
        }
        let whole = try #require(cell)
        // Cut short, an unknown change, and a text longer than the cell.
        for damaged in [whole.prefix(whole.count - 3), Data([9, 1, 2]), Data([1, 0xFF, 0x7F])] {
            let other = try TemporaryFolder()
            let copy = try Journal.open(stateDirectory: other.path)
            let id = try copy.beginRun(
                NewRun(file: "/w/d.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
            try await copy.flushed()
            try copy.writing { db in
                try db.execute(
                    sql: "INSERT INTO step_log (run_id, changes) VALUES (?, ?)", arguments: [id, Data(damaged)])
            }
            // Both the run's own view and the listing's counts read the cell.
            for read in [{ _ = try copy.run(id: id) }, { _ = try copy.runs(file: nil) }] {
                #expect {
                    try read()
                } throws: { error in
                    guard case .corrupt(let file, let reason) = error as? JournalError else { return false }
                    return file == copy.file && reason.contains("step_log")
                }
            }
            copy.close()
        }
    }

    @Test(
        "the listing's counts (states alone) agree with the run's whole view: every change, items, errors, secrets"
    )
    func listedCountsAgree() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let file = "/w/counts.yaml"
        let run = try journal.beginRun(
            NewRun(file: file, fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        let at = Date(timeIntervalSince1970: 100)
        func start(_ step: String, item: Int? = nil, attempt: Int = 1) {
            journal.record(.stepStarted(run: run, step: step, item: item, attempt: attempt, at: at))
        }
        func finish(
            _ step: String, _ state: JournalStepState, item: Int? = nil, outputs: String? = nil, secret: Bool = false,
            error: String? = nil
        ) {
            journal.record(
                .stepFinished(
                    run: run, step: step, item: item, state: state, attempts: 1, startedAt: nil, finishedAt: at,
                    outputs: secret ? .secret : outputs.map { .json($0) } ?? .stateOnly, error: error))
        }
        start("a")
        finish("a", .succeeded)  // the compact finish
        start("b")
        finish("b", .failed, outputs: #"{"outputs":{"code":1}}"#, error: "exit 1")
        start("running")
        journal.record(.unsafeSend(run: run, step: "sent", item: nil, at: at))  // no start: running
        start("e")
        journal.record(.unsafeSend(run: run, step: "e", item: nil, at: at))
        finish("e", .succeeded, outputs: #"{"outputs":{"id":"7"}}"#)
        for item in 0..<3 { start("f", item: item) }
        finish("f", .succeeded, item: 0)
        finish("f", .succeeded, item: 1, secret: true)
        finish("f", .cancelled, item: 2)
        journal.record(
            .transfer(
                run: run, step: "upload", item: nil, kind: "tus", target: "http://h/files/1", bytesConfirmed: 10,
                fileIdentity: "f|1"))
        finish("h", .skipped)  // never started
        start("retried")
        finish("retried", .failed)
        start("retried", attempt: 2)
        try await journal.flushed()

        let detail = try #require(try journal.run(id: run))
        let listed = try journal.runs(file: file).map(\.stepCounts)
        #expect(listed == [detail.run.stepCounts])
        #expect(
            listed == [["succeeded": 2, "failed": 1, "running": 3, "skipped": 1]], "a, e; b; running, sent, retried; h")
        let items = try journal.runs(file: file).map(\.itemCounts)
        #expect(items == [detail.run.itemCounts])
        #expect(items == [["succeeded": 2, "cancelled": 1]], "f[0], f[1]; f[2]")
    }

    @Test("2,000 step changes of one run: one log cell per batch, not a row per step")
    func oneCellPerBatch() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/c.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        try await journal.flushed()
        let at = Date(timeIntervalSince1970: 100)
        for index in 0..<1_000 {
            journal.record(.stepStarted(run: run, step: "s\(index)", item: nil, attempt: 1, at: at))
            journal.record(
                .stepFinished(
                    run: run, step: "s\(index)", item: nil, state: .succeeded, attempts: 1, startedAt: nil,
                    finishedAt: at, outputs: .json("{}"), error: nil))
        }
        try await journal.flushed()
        // One cell per batch: the writer takes at most 1,000 changes a batch (`batchLimit`), so 2,000
        // changes recorded at once are two or three batches, never a thousand rows.
        let cells = try #require(
            try journal.reading { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM step_log") })
        #expect((1...3).contains(cells), "\(cells) cells")
        let detail = try #require(try journal.run(id: run))
        #expect(detail.steps.count == 1_000)
        #expect(detail.steps.allSatisfy { $0.state == .succeeded && $0.startedAt == at })
    }
}

extension Journal {
    /// A synchronous write to the journal's database, for tests that damage it.
    fileprivate func writing(_ body: (Database) throws -> Void) throws {
        try database.write(body)
    }
}
