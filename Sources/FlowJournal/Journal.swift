import CSQLiteShim
import Foundation
import GRDB
import GRDBSQLite

/// A workflow's run journal: DIR/journal.sqlite, an SQLite database in WAL mode.
///
/// Several `flow` processes may use the same journal at once: each write waits (up to
/// `busyTimeout`) for the others. Changes are recorded without blocking and written by the
/// journal's own thread in batches (see `record`). Nothing here knows about workflows: it stores
/// the strings, numbers and dates it is given, and is never given a secret.
///
/// Pruning: when a run begins, older runs of the same file are deleted so that the 50 newest
/// remain. Also kept, whatever their age: the newest unfinished (failed or interrupted) run, which
/// `--resume` would continue, and runs whose process is still running.
package final class Journal: Sendable {
    /// Runs kept per workflow file when a new one begins (see the type's comment).
    package static let keptRunsPerFile = 50
    /// How long a write waits for another process's write before failing.
    package static let busyTimeout: TimeInterval = 10

    /// The journal's file: DIR/journal.sqlite.
    package let file: String
    let database: DatabaseQueue
    let writer: JournalWriter

    private init(file: String, database: DatabaseQueue) {
        self.file = file
        self.database = database
        self.writer = JournalWriter(database: database, file: file)
    }

    deinit {
        writer.close(wait: false)
    }

    /// Opens (creating) DIR/journal.sqlite in WAL mode and runs migrations. Checks first that the
    /// folder can be written and has space, so a clear `JournalError` comes before any request is sent.
    package static func open(stateDirectory: String) throws(JournalError) -> Journal {
        let directory = JournalLocation.absolute(stateDirectory)
        try StateDirectory.prepare(directory)
        let file = (directory as NSString).appendingPathComponent("journal.sqlite")
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "flow.journal"
        configuration.prepareDatabase { db in
            // WAL mode set here rather than by GRDB's `journalMode = .wal`, whose set-up also reads
            // file attributes through Foundation's URL resource values (about 2 ms a run).
            // `synchronous = NORMAL`: a commit survives the process dying (kill -9 included),
            // which is what a resume needs, without an fdatasync a commit.
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode?.lowercased() == "wal" else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR, message: "the journal could not use WAL mode (\(mode ?? "none"))")
            }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Closing the last connection would copy the log into the database and sync both, in
            // series after the run's last step (about 90 ms for 10,000 steps). The log is left for
            // SQLite's automatic checkpoints (every 1,000 pages, on a writer thread) instead.
            guard let connection = db.sqliteConnection else { return }
            let code = flow_sqlite_skip_checkpoint_on_close(UnsafeMutableRawPointer(connection))
            if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
        }
        // Two flows creating one journal at once: switching a new file to WAL mode can meet the
        // other's lock in a way SQLite reports at once (SQLITE_BUSY, no busy handler: it would be a
        // deadlock), so the open is tried again, every 20 ms, for as long as a write would wait.
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                let database = try DatabaseQueue(path: file, configuration: configuration)
                try JournalMigrations.migrate(database, file: file)
                return Journal(file: file, database: database)
            } catch let error as DatabaseError
                where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode.primaryResultCode) && Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.020)
            } catch {
                throw JournalError.from(error, file: file)
            }
        }
    }

    /// Opens DIR/journal.sqlite to read it (`flow runs`), without creating anything: nil when the
    /// folder has no journal yet. Writing through the returned journal fails.
    package static func openForReading(stateDirectory: String) throws(JournalError) -> Journal? {
        let directory = JournalLocation.absolute(stateDirectory)
        let file = (directory as NSString).appendingPathComponent("journal.sqlite")
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "flow.journal.reader"
        do {
            let database = try DatabaseQueue(path: file, configuration: configuration)
            let version = try database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            // A journal whose creation was cut short has no tables yet: no runs either.
            if version == 0 { return nil }
            if version > JournalMigrations.steps.count { throw JournalMigrations.tooNew(file: file, version: version) }
            return Journal(file: file, database: database)
        } catch {
            throw JournalError.from(error, file: file)
        }
    }

    /// Synchronous (called once before the run starts): inserts the run and returns its id
    /// (e.g. "20261123-130455-a1b2": UTC start time, random suffix). Pruning the file's old runs
    /// (see the type's comment for the rule) is recorded as the run's first change, which the
    /// journal's thread writes while the run goes on.
    package func beginRun(_ run: NewRun) throws(JournalError) -> String {
        let identity = ProcessIdentity.current
        do {
            // The log an earlier run left (closing skips the checkpoint) is folded into the database
            // by the journal's thread with its first batch, not by this commit, which the run's
            // first step waits for: after a 100,000-item run, 2,000 pages and two syncs (tens of ms).
            let id = try database.writeWithoutTransaction { db -> String in
                let pages = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1_000
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
                defer { try? db.execute(sql: "PRAGMA wal_autocheckpoint = \(pages)") }
                var id = ""
                try db.inTransaction {
                    id = try insert(run, identity: identity, in: db)
                    return .commit
                }
                return id
            }
            record(.pruneRuns(file: run.file, keeping: Journal.keptRunsPerFile))
            return id
        } catch {
            throw JournalError.from(error, file: file)
        }
    }

    /// Marks a resumed run as running again (same id, this process), with the file's new hash and
    /// step hashes. Fails when the journal has no run with that id, or when another process that is
    /// still alive runs it (two `--resume` of one run at once).
    package func reopenRun(id: String, fileHash: String, stepHashes: [String: String]) throws(JournalError) {
        let identity = ProcessIdentity.current
        do {
            try database.write { db in
                guard
                    let row = try Row.fetchOne(
                        db, sql: "\(JournalReading.runColumns) WHERE id = ?", arguments: [id])
                else { throw JournalError.io("no run \(id) in the journal \(file)") }
                let owner = try JournalReading.owner(of: row)
                if try JournalReading.storedState(of: row) == .running, owner != identity, owner.isAlive() {
                    throw JournalError.io(
                        "run \(id) is still running (process \(owner.pid)); wait for it to end or stop it first")
                }
                try db.execute(
                    sql: """
                        UPDATE run SET state = 'running', finished_at = NULL, file_hash = ?, step_hashes = '{}',
                            pid = ?, pid_started = ?, host = ?
                        WHERE id = ?
                        """,
                    arguments: [fileHash, identity.pid, identity.started, identity.host, id])
                try db.execute(
                    sql: """
                        INSERT INTO run_step_hashes (run_id, step_hashes) VALUES (?, ?)
                        ON CONFLICT (run_id) DO UPDATE SET step_hashes = excluded.step_hashes
                        """,
                    arguments: [id, StepHashText.encode(stepHashes)])
            }
        } catch {
            throw JournalError.from(error, file: file)
        }
    }

    /// Non-blocking: queues `change`; the journal's thread writes it with the others pending, in one
    /// transaction, at most `window` (20 ms) later or as soon as 1,000 changes wait or a flush asks.
    /// A change the database refuses (an unknown run id) is dropped alone.
    package func record(_ change: JournalChange) {
        writer.record(change)
    }

    /// Non-blocking: the same as recording `.stepFinished` with these fields, without making the
    /// change first (the run's queue calls this once a step).
    package func recordStepFinished(
        run: String, step: String, item: Int?, state: JournalStepState, attempts: Int, startedAt: Date?,
        finishedAt: Date,
        outputs: JournalOutputs, error: String?
    ) {
        writer.recordStepChange(run: run) { log in
            log.addFinished(
                step: step, item: item, state: state, attempts: attempts, startedAt: startedAt,
                finishedAt: finishedAt, outputs: outputs, error: error)
        }
    }

    /// Adds changes made only when a batch is written: the journal's thread calls `take` before
    /// writing each batch (and once more when the journal closes) and writes what it returns first
    /// in that batch. For changes that are most often moot by then, such as the start of a step
    /// that ends within the batch window (its finish carries its start). `take` must not call into
    /// the journal.
    package func addBatchSource(_ take: @escaping @Sendable () -> [JournalChange]) {
        writer.addSource(take)
    }

    /// Non-blocking: makes the journal's thread write a batch within its window even if nothing is
    /// recorded, for a batch source or a tail that has changes; at once when `now` (a tail holds
    /// `batchLimit` changes).
    package func wake(now: Bool = false) {
        writer.wake(now: now)
    }

    /// Adds a tail of `run`'s step changes: changes its recorder keeps as it likes (a `for-each`
    /// item's end as a few fields, not encoded on the run's queue) until `take` takes them, with
    /// how to encode them into the log (nil when it holds none). The journal calls `take` under its
    /// own lock when it cuts a batch and before it records any other change, so the tail's changes
    /// keep their place among the others and a batch holds every change recorded before it was
    /// cut, as if each had been recorded at once; it encodes them on its own thread, outside that
    /// lock, when it writes the batch.
    /// The recorder calls `wake` when the tail stops being empty (and `wake(now: true)` when it
    /// holds `batchLimit` changes). `take` must not call into the journal.
    package func addTail(
        run: String, _ take: @escaping @Sendable () -> (@Sendable (inout JournalStepLog) -> Void)?
    ) {
        writer.addTail(run: run) {
            guard let encode = take() else { return nil }
            return { encoder in
                var log = JournalStepLog(encoder: encoder)
                encoder = StepLogEncoder()
                encode(&log)
                log.encoder.closeItemEnds()
                encoder = log.encoder
            }
        }
    }

    /// Changes a tail holds that make the journal write a batch at once (see `addTail`).
    package var batchLimit: Int { writer.batchLimit }

    /// Non-blocking write-ahead: `done` is called on the journal's thread once every change recorded
    /// before this call is committed, or with the error that prevented it (after one failed write,
    /// every later flush reports that failure). Do not call `flushAndWait` from `done`.
    package func flush(_ done: @escaping @Sendable (JournalError?) -> Void) {
        writer.flush(done)
    }

    /// Blocking: waits until everything recorded so far is committed. Only for the CLI's main thread
    /// at the end of a run and for tests, never on a Dispatch worker.
    package func flushAndWait() throws(JournalError) {
        let outcome = FlushOutcome()
        writer.flush { error in outcome.finish(error) }
        if let error = outcome.wait() { throw error }
    }

    /// Batches the journal's thread has committed so far, one transaction each (for benchmarks and
    /// tests: recorded changes should take far fewer transactions than there are changes).
    package var transactionsCommitted: Int {
        writer.batches
    }

    /// Writes what is pending, stops the journal's thread (waits for it) and closes the database
    /// connection, so the folder can be unmounted or removed. Later `record`s are ignored; later
    /// flushes and reads fail.
    package func close() {
        writer.close(wait: true)
        try? database.close()
    }

    private func insert(_ run: NewRun, identity: ProcessIdentity, in db: Database) throws -> String {
        let inputs = JournalJSON.encode(run.inputs)
        // The random suffix rarely clashes; draw again when it does.
        for _ in 0..<16 {
            let id = RunID.make(startedAt: run.startedAt)
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM run WHERE id = ?", arguments: [id]) == true { continue }
            try db.execute(
                sql: """
                    INSERT INTO run (id, file, file_hash, step_hashes, step_hashes_key, inputs, state, started_at,
                        pid, pid_started, host)
                    VALUES (?, ?, ?, '{}', ?, ?, 'running', ?, ?, ?, ?)
                    """,
                arguments: [
                    id, run.file, run.fileHash, run.stepHashesKey, inputs, run.startedAt.timeIntervalSince1970,
                    identity.pid, identity.started, identity.host,
                ])
            // Its own table (see `JournalSchema.createVersion2`); a run recorded with `.stepHashes`
            // right after has an empty map here.
            if !run.stepHashes.isEmpty {
                try db.execute(
                    sql: "INSERT INTO run_step_hashes (run_id, step_hashes) VALUES (?, ?)",
                    arguments: [id, StepHashText.encode(run.stepHashes)])
            }
            return id
        }
        throw JournalError.io("could not find a free run id in the journal \(file)")
    }
}

/// The result `flushAndWait` blocks for.
private final class FlushOutcome: @unchecked Sendable {
    // Safe to share: `error` and `done` are only touched with `condition` locked.
    private let condition = NSCondition()
    private var error: JournalError?
    private var done = false

    func finish(_ error: JournalError?) {
        condition.lock()
        self.error = error
        done = true
        condition.signal()
        condition.unlock()
    }

    func wait() -> JournalError? {
        condition.lock()
        defer { condition.unlock() }
        while !done { condition.wait() }
        return error
    }
}
