import Foundation
import GRDB

extension Journal {
    /// The runs of `file` (a path as `JournalLocation.canonicalFile` gives), or of every file when nil,
    /// newest first. Changes recorded but not yet flushed are not seen.
    package func runs(file: String?) throws(JournalError) -> [JournalRun] {
        do {
            return try database.read { db in
                let filter = file == nil ? "" : "WHERE file = ?"
                let arguments: StatementArguments = file.map { [$0] } ?? []
                let counts = try JournalReading.stepCounts(in: db, file: file)
                return try Row.fetchAll(
                    db, sql: "\(JournalReading.runColumns) \(filter) ORDER BY started_at DESC, rowid DESC",
                    arguments: arguments
                ).map { row in try JournalReading.run(from: row, counts: counts) }
            }
        } catch {
            throw JournalError.from(error, file: self.file)
        }
    }

    /// Everything about the run `id`, or nil when the journal has no such run (or it was pruned).
    /// Steps come in the order they started (those never started last), then by id and item.
    package func run(id: String) throws(JournalError) -> JournalRunDetail? {
        do {
            return try database.read { db in try JournalReading.detail(id: id, in: db) }
        } catch {
            throw JournalError.from(error, file: file)
        }
    }

    /// The newest run of `file` that ended failed or interrupted (a run whose process died counts as
    /// interrupted), which `--resume` continues; nil when there is none. A run still running in
    /// another process is never returned.
    package func latestUnfinishedRun(file: String) throws(JournalError) -> JournalRunDetail? {
        do {
            return try database.read { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: "\(JournalReading.runColumns) WHERE file = ? AND state != 'succeeded' "
                        + "ORDER BY started_at DESC, rowid DESC",
                    arguments: [file])
                for row in rows {
                    let run = try JournalReading.run(from: row, counts: [:])
                    if run.state.isUnfinished {
                        return try JournalReading.detail(id: run.id, in: db)
                    }
                }
                return nil
            }
        } catch {
            throw JournalError.from(error, file: self.file)
        }
    }
}

/// Turning rows into the journal's public records; every value is decoded with a throwing call
/// (a damaged cell is an error, never a crash).
enum JournalReading {
    static let runColumns = "SELECT id, file, state, started_at, finished_at, pid, pid_started, host FROM run"

    /// The state a reader should see: running only while the run's process is alive.
    static func effectiveState(_ state: JournalRunState, identity: ProcessIdentity) -> JournalRunState {
        state == .running && !identity.isAlive() ? .interrupted : state
    }

    /// The state a run row stores, decoded (`JournalStateText`).
    static func storedState(of row: Row) throws -> JournalRunState {
        try JournalStateText.run(try row.decode(forColumn: "state"), id: try row.decode(forColumn: "id"))
    }

    /// The process a run row names.
    static func owner(of row: Row) throws -> ProcessIdentity {
        ProcessIdentity(
            pid: try row.decode(forColumn: "pid"), started: try row.decode(forColumn: "pid_started"),
            host: try row.decode(forColumn: "host"))
    }

    static func run(from row: Row, counts: [String: StateCounts]) throws -> JournalRun {
        let id: String = try row.decode(forColumn: "id")
        let identity = try owner(of: row)
        let finished: Double? = try row.decode(forColumn: "finished_at")
        return JournalRun(
            id: id, file: try row.decode(forColumn: "file"),
            state: effectiveState(try storedState(of: row), identity: identity),
            startedAt: Date(timeIntervalSince1970: try row.decode(forColumn: "started_at")),
            finishedAt: finished.map(Date.init(timeIntervalSince1970:)), stepCounts: counts[id]?.steps ?? [:],
            itemCounts: counts[id]?.items ?? [:])
    }

    /// How many steps (and apart, items) of each run are in each state: the runs of `file`, or every run.
    static func stepCounts(in db: Database, file: String?) throws -> [String: StateCounts] {
        let filter = file == nil ? "" : "WHERE file = ?"
        let arguments: StatementArguments = file.map { [$0] } ?? []
        var counts: [String: StateCounts] = [:]
        var capacity = 0
        for id in try String.fetchAll(db, sql: "SELECT id FROM run \(filter)", arguments: arguments) {
            var fold = StepStateFold(capacity: capacity)
            // Format 1's rows, then the step log.
            let rows = try Row.fetchAll(db, sql: "SELECT step, item, state FROM step WHERE run_id = ?", arguments: [id])
            for row in rows {
                let key = StepLogKey(
                    step: try row.decode(forColumn: "step"), item: item(try row.decode(forColumn: "item")))
                fold.add(
                    key,
                    state: try JournalStateText.step(row.decode(forColumn: "state"), step: key.step, item: key.item))
            }
            try forEachCell(run: id, in: db) { cell throws(StepLogDamage) in try fold.apply(cell) }
            counts[id] = fold.stateCounts
            capacity = fold.count
        }
        return counts
    }

    /// The run's steps and transfers as they stand (see `StepLogFold`).
    static func fold(run id: String, in db: Database) throws -> StepLogFold {
        var fold = StepLogFold()
        for row in try Row.fetchAll(db, sql: "SELECT * FROM step WHERE run_id = ?", arguments: [id]) {
            fold.add(try step(from: row))
        }
        for row in try Row.fetchAll(db, sql: "SELECT * FROM transfer WHERE run_id = ?", arguments: [id]) {
            fold.add(try transfer(from: row))
        }
        try forEachCell(run: id, in: db) { cell throws(StepLogDamage) in try fold.apply(cell) }
        return fold
    }

    /// Calls `body` with each of the run's `step_log` cells in the order they were written.
    private static func forEachCell(
        run id: String, in db: Database, _ body: ([UInt8]) throws(StepLogDamage) -> Void
    ) throws {
        // A format-1 journal opened only to read (`flow runs` before any `flow run` upgraded it)
        // has no step log yet.
        guard try db.tableExists("step_log") else { return }
        let cells = try Row.fetchCursor(
            db, sql: "SELECT seq, changes FROM step_log WHERE run_id = ? ORDER BY seq", arguments: [id])
        while let row = try cells.next() {
            guard let data = row["changes"] as Data? else { continue }
            do {
                try body([UInt8](data))
            } catch {
                let seq: Int = row["seq"]
                // Named as SQLite names damage, so that `JournalError.from` says which file.
                throw DatabaseError(
                    resultCode: .SQLITE_CORRUPT,
                    message: "run \(id)'s step changes (step_log \(seq)) cannot be read: \(error)")
            }
        }
    }

    static func detail(id: String, in db: Database) throws -> JournalRunDetail? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT *, rowid FROM run WHERE id = ?", arguments: [id])
        else { return nil }
        let fold = try fold(run: id, in: db)
        let steps = fold.orderedSteps
        let transfers = fold.orderedTransfers
        return JournalRunDetail(
            run: try run(from: row, counts: [id: fold.stateCounts]), fileHash: try row.decode(forColumn: "file_hash"),
            stepHashes: try StepHashText.decode(stepHashesText(of: row, id: id, in: db)),
            inputs: try JournalJSON.decode(try row.decode(forColumn: "inputs")), steps: steps, transfers: transfers)
    }

    /// A run's step hashes: its own (formats 2 and 3, and a resumed run's), else those it shares
    /// (format 4), else its row's (format 1).
    private static func stepHashesText(of row: Row, id: String, in db: Database) throws -> String {
        if try db.tableExists("run_step_hashes"),
            let own = try String.fetchOne(
                db, sql: "SELECT step_hashes FROM run_step_hashes WHERE run_id = ?", arguments: [id])
        {
            return own
        }
        if let key: String = row["step_hashes_key"],
            let shared = try String.fetchOne(
                db, sql: "SELECT step_hashes FROM shared_step_hashes WHERE hashes_key = ?", arguments: [key])
        {
            return shared
        }
        return try row.decode(forColumn: "step_hashes")
    }

    static func step(from row: Row) throws -> JournalStep {
        let started: Double? = try row.decode(forColumn: "started_at")
        let finished: Double? = try row.decode(forColumn: "finished_at")
        let step: String = try row.decode(forColumn: "step")
        let item = item(try row.decode(forColumn: "item"))
        return JournalStep(
            step: step, item: item,
            state: try JournalStateText.step(row.decode(forColumn: "state"), step: step, item: item),
            attempts: try row.decode(forColumn: "attempts"),
            startedAt: started.map(Date.init(timeIntervalSince1970:)),
            finishedAt: finished.map(Date.init(timeIntervalSince1970:)),
            outputs: outputs(
                json: try row.decode(forColumn: "outputs_json"), secret: try row.decode(forColumn: "contains_secret")),
            error: try row.decode(forColumn: "error"),
            unsafeInFlight: try row.decode(forColumn: "unsafe_in_flight"))
    }

    /// A format-1 row's outputs: its text, or the secret marker (no text, the flag set).
    private static func outputs(json: String?, secret: Bool) -> JournalOutputs {
        if secret { return .secret }
        return json.map { .json($0) } ?? JournalOutputs.none
    }

    static func transfer(from row: Row) throws -> JournalTransfer {
        JournalTransfer(
            step: try row.decode(forColumn: "step"), item: item(try row.decode(forColumn: "item")),
            kind: try row.decode(forColumn: "kind"), target: try row.decode(forColumn: "target"),
            bytesConfirmed: try row.decode(forColumn: "bytes_confirmed"),
            fileIdentity: try row.decode(forColumn: "file_identity"))
    }

    private static func item(_ stored: Int) -> Int? {
        stored == ChangeWriter.noItem ? nil : stored
    }
}

extension Journal {
    /// SQLite's `PRAGMA integrity_check`: "ok" for a sound file, else the problems it finds, one a
    /// line (for tests and checks after a crash or two writers at once).
    package func integrityCheck() throws(JournalError) -> String {
        do {
            return try database.read { db in
                try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "\n")
            }
        } catch {
            throw JournalError.from(error, file: file)
        }
    }
}
