import Foundation
import GRDB
import GRDBSQLite

/// Applies recorded changes to the database, inside the writer's transaction.
///
/// The statements are prepared once a batch, not looked up per change (a cache lookup hashes the
/// whole SQL text), and each change is bound and stepped through SQLite's C API: GRDB's
/// `StatementArguments` boxes every value in an existential and converts it again, which cost
/// about as much as SQLite's own work (measured with perf in bench/journal). The statements are
/// plain INSERT/UPDATEs inside GRDB's transaction, so skipping GRDB's per-statement hooks changes
/// nothing it tracks.
struct ChangeWriter {
    /// The `item` column's value for a step without items (NULLs cannot be part of the key).
    static let noItem = -1

    private let stepStarted: Statement
    private let stepFinished: Statement
    private let unsafeSend: Statement
    private let transfer: Statement
    private let runFinished: Statement
    private let stepHashes: Statement
    private let db: Database

    init(_ db: Database) throws {
        self.db = db
        // A first attempt (also on resume) starts the step afresh: earlier outputs are stale.
        stepStarted = try db.cachedStatement(
            sql: """
                INSERT INTO step (run_id, step, item, state, attempts, started_at)
                VALUES (?, ?, ?, 'running', ?, ?)
                ON CONFLICT (run_id, step, item) DO UPDATE SET
                    state = 'running', attempts = excluded.attempts,
                    started_at = CASE WHEN excluded.attempts <= 1 OR started_at IS NULL
                        THEN excluded.started_at ELSE started_at END,
                    finished_at = NULL, outputs_json = NULL, contains_secret = 0, error = NULL,
                    unsafe_in_flight = 0
                """)
        stepFinished = try db.cachedStatement(
            sql: """
                INSERT INTO step (run_id, step, item, state, attempts, started_at, finished_at,
                    outputs_json, contains_secret, error, unsafe_in_flight)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
                ON CONFLICT (run_id, step, item) DO UPDATE SET
                    state = excluded.state, attempts = excluded.attempts,
                    started_at = coalesce(excluded.started_at, started_at),
                    finished_at = excluded.finished_at, outputs_json = excluded.outputs_json,
                    contains_secret = excluded.contains_secret, error = excluded.error,
                    unsafe_in_flight = 0
                """)
        unsafeSend = try db.cachedStatement(
            sql: """
                INSERT INTO step (run_id, step, item, state, attempts, started_at, unsafe_in_flight)
                VALUES (?, ?, ?, 'running', 1, ?, 1)
                ON CONFLICT (run_id, step, item) DO UPDATE SET unsafe_in_flight = 1
                """)
        transfer = try db.cachedStatement(
            sql: """
                INSERT INTO transfer (run_id, step, item, kind, target, bytes_confirmed, file_identity)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (run_id, step, item, kind) DO UPDATE SET
                    target = excluded.target, bytes_confirmed = excluded.bytes_confirmed,
                    file_identity = excluded.file_identity
                """)
        runFinished = try db.cachedStatement(sql: "UPDATE run SET state = ?, finished_at = ? WHERE id = ?")
        stepHashes = try db.cachedStatement(sql: "UPDATE run SET step_hashes = ? WHERE id = ?")
    }

    /// Applies `change`; returns false when it was refused by a constraint (say, a run id the journal
    /// does not know), which drops that change alone and keeps the rest of the batch.
    func apply(_ change: JournalChange) throws -> Bool {
        do {
            try execute(change)
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
    }

    private func execute(_ change: JournalChange) throws {
        switch change {
        case .stepStarted(let run, let step, let item, let attempt, let at):
            try perform(stepStarted) { bind in
                bind.text(run)
                bind.text(step)
                bind.integer(item ?? Self.noItem)
                bind.integer(attempt)
                bind.real(at.timeIntervalSince1970)
            }
        case .stepFinished(
            let run, let step, let item, let state, let attempts, let startedAt, let finishedAt, let outputsJSON,
            let containsSecret, let error):
            try perform(stepFinished) { bind in
                bind.text(run)
                bind.text(step)
                bind.integer(item ?? Self.noItem)
                bind.text(state)
                bind.integer(attempts)
                bind.real(startedAt?.timeIntervalSince1970)
                bind.real(finishedAt.timeIntervalSince1970)
                // The secret marker: never the outputs of a step that held a secret.
                bind.text(containsSecret ? nil : outputsJSON)
                bind.integer(containsSecret ? 1 : 0)
                bind.text(error)
            }
        case .unsafeSend(let run, let step, let item, let at):
            try perform(unsafeSend) { bind in
                bind.text(run)
                bind.text(step)
                bind.integer(item ?? Self.noItem)
                bind.real(at.timeIntervalSince1970)
            }
        case .transfer(let run, let step, let item, let kind, let target, let bytesConfirmed, let fileIdentity):
            try perform(transfer) { bind in
                bind.text(run)
                bind.text(step)
                bind.integer(item ?? Self.noItem)
                bind.text(kind)
                bind.text(target)
                bind.integer(Int(bytesConfirmed))
                bind.text(fileIdentity)
            }
        case .runFinished(let run, let state, let at):
            try perform(runFinished) { bind in
                bind.text(state)
                bind.real(at.timeIntervalSince1970)
                bind.text(run)
            }
        case .stepHashes(let run, let hashes):
            let text = JournalJSON.encode(hashes)
            try perform(stepHashes) { bind in
                bind.text(text)
                bind.text(run)
            }
        case .pruneRuns(let file, let kept):
            try JournalPruning.prune(file: file, keeping: kept, in: db)
        case .deferred(let make):
            try execute(make())
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

        mutating func integer(_ value: Int) {
            sqlite3_bind_int64(handle, index, sqlite3_int64(value))
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

    /// Which changes of `batch` need not be written: the `stepStarted` changes that a later
    /// `stepFinished` of the same step (and item) in the batch makes moot, as the finish writes every
    /// column the start wrote (its `startedAt` included, when it has one). A step that starts and
    /// finishes within one batch — most steps of a fast run — then costs one row write instead of
    /// two. A mask rather than a filtered copy: copying the batch retains and releases every string.
    static func superseded(_ batch: [JournalChange]) -> [Bool] {
        var finished: Set<StepKey> = []
        var skip = [Bool](repeating: false, count: batch.count)
        for index in batch.indices.reversed() {
            switch batch[index] {
            case .stepFinished(let run, let step, let item, _, _, let startedAt, _, _, _, _) where startedAt != nil:
                finished.insert(StepKey(run: run, step: step, item: item ?? noItem))
            case .stepStarted(let run, let step, let item, _, _):
                skip[index] = finished.contains(StepKey(run: run, step: step, item: item ?? noItem))
            default:
                break
            }
        }
        return skip
    }

    private struct StepKey: Hashable {
        var run: String
        var step: String
        var item: Int
    }
}
