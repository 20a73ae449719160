import Foundation
import GRDB
import GRDBSQLite

/// Applies recorded changes to the database, inside the writer's transaction.
///
/// Step changes (starts, finishes, unsafe sends, transfers) are not a row each: they are gathered
/// into one `step_log` cell per run for the batch (`StepLogEncoder`), written by `finish`. Changes
/// of the run itself (its end, its step hashes, pruning) are SQL statements run at once.
///
/// The statements are prepared once a batch, not looked up per change (a cache lookup hashes the
/// whole SQL text), and bound and stepped through SQLite's C API: GRDB's `StatementArguments`
/// boxes every value in an existential and converts it again. They are plain INSERT/UPDATEs inside
/// GRDB's transaction, so skipping GRDB's per-statement hooks changes nothing it tracks.
final class ChangeWriter {
    /// The `item` column's value for a step without items in format 1's rows (NULLs cannot be part
    /// of the key).
    static let noItem = -1

    private let logCell: Statement
    private let runFinished: Statement
    private let stepHashes: Statement
    private let db: Database
    /// This batch's step changes, by run, in the order the runs first appeared.
    private var logs: [String: StepLogEncoder] = [:]
    private var runs: [String] = []

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

    /// Applies `change` (a step change is only gathered; see `finish`); returns false when it was
    /// refused by a constraint (say, a run id the journal does not know), which drops that change
    /// alone and keeps the rest of the batch.
    func apply(_ change: JournalChange) throws -> Bool {
        do {
            try execute(change)
            return true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return false
        }
    }

    /// Writes the gathered step changes: one `step_log` cell per run. A run the journal does not
    /// know (a constraint refuses its cell) loses its cell alone.
    func finish() throws {
        for run in runs {
            guard let log = logs[run], !log.isEmpty else { continue }
            do {
                try perform(logCell) { bind in
                    bind.text(run)
                    bind.blob(log.bytes)
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                continue
            }
        }
        logs = [:]
        runs = []
    }

    private func execute(_ change: JournalChange) throws {
        switch change {
        case .stepStarted(let run, _, _, _, _), .stepFinished(let run, _, _, _, _, _, _, _, _, _),
            .unsafeSend(let run, _, _, _), .transfer(let run, _, _, _, _, _, _):
            if logs[run] == nil { runs.append(run) }
            _ = logs[run, default: StepLogEncoder()].add(change)
        case .runFinished(let run, let state, let at):
            try perform(runFinished) { bind in
                bind.text(state)
                bind.real(at.timeIntervalSince1970)
                bind.text(run)
            }
        case .stepHashes(let run, let hashes):
            let text = JournalJSON.encode(hashes)
            try perform(stepHashes) { bind in
                bind.text(run)
                bind.text(text)
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

        mutating func blob(_ value: [UInt8]) {
            _ = value.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(clamping: bytes.count), Self.transient)
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
