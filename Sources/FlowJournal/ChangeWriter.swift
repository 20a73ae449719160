import Foundation
import GRDB
import GRDBSQLite

/// A batch of changes made ready to write: each run's step changes (starts, finishes, unsafe
/// sends, transfers) encoded into one `step_log` cell (`StepLogEncoder`), and the changes of runs
/// themselves (their end, their step hashes, pruning), which are SQL statements, in order.
struct GatheredChanges {
    /// Step changes by run, in the order the runs first appeared.
    private(set) var logs: [(run: String, log: StepLogEncoder)] = []
    private var logIndex: [String: Int] = [:]
    private(set) var statements: [JournalChange] = []

    /// Adds `change`, made first when it is deferred.
    mutating func add(_ change: JournalChange) {
        if let run = change.stepLogRun {
            logs[indexOfLog(for: run)].log.add(change)
            return
        }
        switch change {
        case .deferred(let make):
            add(make())
        default:
            statements.append(change)
        }
    }

    /// Adds what the recording thread already encoded, or kept as it was.
    mutating func add(_ pending: PendingChange) {
        switch pending {
        case .log(let run, let encoded): logs[indexOfLog(for: run)].log.append(encoded)
        case .change(let change): add(change)
        case .encode(let run, let encode): encode(&logs[indexOfLog(for: run)].log)
        }
    }

    /// Where the log of `run`'s changes in this batch is in `logs`, added when missing.
    private mutating func indexOfLog(for run: String) -> Int {
        // Nearly always the run of the change before.
        if let last = logs.indices.last, logs[last].run == run { return last }
        if let known = logIndex[run] { return known }
        logs.append((run, StepLogEncoder()))
        logIndex[run] = logs.count - 1
        return logs.count - 1
    }
}

/// Writes gathered changes inside the writer's transaction.
///
/// The statements are prepared once a batch, not looked up per change (a cache lookup hashes the
/// whole SQL text), and bound and stepped through SQLite's C API: GRDB's `StatementArguments`
/// boxes every value in an existential and converts it again. They are plain INSERT/UPDATEs inside
/// GRDB's transaction, so skipping GRDB's per-statement hooks changes nothing it tracks.
struct ChangeWriter {
    /// The `item` column's value for a step without items in format 1's rows (NULLs cannot be part
    /// of the key).
    static let noItem = -1

    private let logCell: Statement
    private let runFinished: Statement
    private let stepHashes: Statement
    private let db: Database

    init(_ db: Database) throws {
        self.db = db
        logCell = try db.cachedStatement(sql: "INSERT INTO step_log (run_id, changes) VALUES (?, ?)")
        runFinished = try db.cachedStatement(sql: "UPDATE run SET state = ?, finished_at = ? WHERE id = ?")
        stepHashes = try db.cachedStatement(
            sql: """
                INSERT INTO run_step_hashes (run_id, step_hashes) VALUES (?, ?)
                ON CONFLICT (run_id) DO UPDATE SET step_hashes = excluded.step_hashes
                """)
    }

    /// Writes the run statements, then one `step_log` cell per run. A change the database refuses
    /// by a constraint (say, a run id the journal does not know) is dropped alone, its cell with it,
    /// and the rest of the batch is kept.
    func write(_ gathered: GatheredChanges) throws {
        for change in gathered.statements {
            try refusable { try execute(change) }
        }
        for (run, log) in gathered.logs {
            try refusable {
                try perform(logCell) { bind in
                    bind.text(run)
                    bind.blob(log.bytes)
                }
            }
        }
    }

    private func refusable(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return
        }
    }

    private func execute(_ change: JournalChange) throws {
        switch change {
        case .runFinished(let run, let state, let at):
            try perform(runFinished) { bind in
                bind.text(state.rawValue)
                bind.real(at.timeIntervalSince1970)
                bind.text(run)
            }
        case .stepHashes(let run, let hashes):
            try perform(stepHashes) { bind in
                bind.text(run)
                bind.text(hashes.text)
            }
        case .sharedStepHashes(let key, let hashes):
            let known = try db.cachedStatement(sql: "SELECT 1 FROM shared_step_hashes WHERE hashes_key = ?")
            guard try Bool.fetchOne(known, arguments: [key]) != true else { return }
            // Another flow may have written them since: theirs are the same.
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO shared_step_hashes (hashes_key, step_hashes) VALUES (?, ?)")
            try perform(insert) { bind in
                bind.text(key)
                bind.text(hashes().text)
            }
        case .pruneRuns(let file, let kept):
            try JournalPruning.prune(file: file, keeping: kept, in: db)
        case .stepStarted, .stepFinished, .unsafeSend, .transfer, .deferred:
            break  // Gathered into the step log (see `GatheredChanges`).
        }
    }

    /// Resets `statement`, binds its arguments in order, and steps it to the end.
    private func perform(_ statement: Statement, _ bindArguments: (inout Binder) -> Void) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var binder = Binder(handle: handle)
        bindArguments(&binder)
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            if code == SQLITE_ROW { continue }
            let message = String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
        sqlite3_clear_bindings(handle)
    }

    /// Binds arguments to the placeholders 1, 2, 3… in turn; nil binds NULL.
    private struct Binder {
        let handle: SQLiteStatement
        var index: Int32 = 1

        /// SQLite copies the text before the call returns (SQLITE_TRANSIENT, a macro Swift does not import).
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        mutating func text(_ value: String?) {
            if let value {
                // The length given: text may hold NUL characters, which would end a C string early.
                sqlite3_bind_text(handle, index, value, Int32(clamping: value.utf8.count), Self.transient)
            } else {
                sqlite3_bind_null(handle, index)
            }
            index += 1
        }

        mutating func blob(_ value: [UInt8]) {
            _ = value.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(clamping: bytes.count), Self.transient)
            }
            index += 1
        }

        mutating func real(_ value: Double?) {
            if let value {
                sqlite3_bind_double(handle, index, value)
            } else {
                sqlite3_bind_null(handle, index)
            }
            index += 1
        }
    }
}
