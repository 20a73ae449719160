internal import CThreadName
import Foundation
import GRDB

/// The journal's own thread: takes recorded changes and writes them in batches, one transaction each.
///
/// Callers only add to `pending` under the lock: a step change (most changes) is encoded at once
/// into the open step log (`StepLogEncoder`), without keeping the change (copying, keeping and
/// destroying a `JournalChange` a step was a third of what the journal cost a 10,000-step run);
/// any other change closes that log and is kept as it is, so the order holds. The
/// thread waits for the first change, then up to `window` more (or until `batchLimit` changes are
/// pending, a flush is asked for, or the journal closes), and writes everything pending at once.
/// It is a dedicated `Thread`, not a Dispatch queue: it blocks on SQLite's I/O (and on the busy
/// timeout when another process writes), which a Dispatch worker must never do.
final class JournalWriter: @unchecked Sendable {
    // Safe to share: every mutable field below is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var pending: [PendingChange] = []
    /// Step changes recorded since the last other change, and their run.
    private var openLog: (run: String, log: StepLogEncoder)?
    /// Changes recorded since the last batch was taken, encoded ones included.
    private var pendingCount = 0
    private var firstPendingAt = Date.distantFuture
    private var waiters: [@Sendable (JournalError?) -> Void] = []
    /// Set by the first failed write: later changes cannot be promised durable, so every flush fails.
    private var failure: JournalError?
    private var closing = false
    /// Changes made when a batch is written (see `Journal.addBatchSource`).
    private var sources: [@Sendable () -> [JournalChange]] = []
    /// A source has changes: write a batch even if nothing is pending.
    private var woken = false
    /// Changes wait in a tail (see `addTail`) as many as a batch holds: write one at once.
    private var full = false
    /// Runs' step changes kept by their recorder until taken (see `addTail`), in the order added.
    private var tails: [(run: String, take: @Sendable () -> (@Sendable (inout StepLogEncoder) -> Void)?)] = []
    private var finished = false
    /// The writer thread, once it runs.
    private var thread: pthread_t?
    /// Transactions committed so far (tests check that changes are batched).
    private var committedBatches = 0

    private let database: DatabaseQueue
    private let file: String
    let batchLimit: Int
    /// The writer thread's name, as debuggers and /proc show it.
    static let threadName = "flow.journal"
    let window: TimeInterval

    init(database: DatabaseQueue, file: String, batchLimit: Int = 1_000, window: TimeInterval = 0.020) {
        self.database = database
        self.file = file
        self.batchLimit = batchLimit
        self.window = window
        Thread { [self] in
            // Named from inside, for the system: Foundation's `Thread.name` may not apply it (see
            // CThreadName.h), and the thread would carry its creator's name.
            flow_name_this_thread(JournalWriter.threadName)
            condition.withLock { thread = pthread_self() }
            run()
        }.start()
    }

    func record(_ change: JournalChange) {
        if let run = change.stepLogRun {
            return recordStepChange(run: run) { $0.add(change) }
        }
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        // A deferred change may be a step's (its finish with outputs to encode): it follows what
        // the tails hold.
        takeTails()
        // A finished run holds nothing more: its tails go, so that a process running many runs
        // (FlowKit) neither keeps them nor asks them all at every change.
        if case .runFinished(let run, _, _) = change { tails.removeAll { $0.run == run } }
        closeOpenLog()
        pending.append(.change(change))
        counted()
    }

    /// Records a step change of `run` by encoding it into the open step log with `encode`.
    func recordStepChange(run: String, _ encode: (inout StepLogEncoder) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        // What the run's tail holds was recorded before this change.
        takeTails(of: run)
        if openLog?.run != run {
            closeOpenLog()
            openLog = (run, StepLogEncoder())
        }
        encode(&openLog!.log)
        counted()
    }

    /// Moves to `pending` what the tails of `run` (every run's when nil) hold, to be encoded when
    /// the batch is written; with `condition` locked, so that a change recorded after (or a batch
    /// cut after) finds them before it, in the order they were recorded.
    private func takeTails(of run: String? = nil) {
        for tail in tails where run == nil || tail.run == run {
            guard let encode = tail.take() else { continue }
            closeOpenLog()
            pending.append(.encode(run: tail.run, encode))
        }
    }

    /// Adds a tail of `run`'s step changes (see `Journal.addTail`).
    func addTail(run: String, _ take: @escaping @Sendable () -> (@Sendable (inout StepLogEncoder) -> Void)?) {
        condition.lock()
        defer { condition.unlock() }
        tails.append((run, take))
    }

    /// Counts a recorded change; with `condition` locked.
    private func counted() {
        pendingCount += 1
        // Wake the thread only when it may be waiting for this: the first change of a batch
        // (it waits for work) or a full batch (it waits out the window).
        if pendingCount == 1 {
            firstPendingAt = Date()
            condition.signal()
        } else if pendingCount == batchLimit {
            condition.signal()
        }
    }

    /// Moves the open step log to `pending`; with `condition` locked.
    private func closeOpenLog() {
        guard let open = openLog else { return }
        pending.append(.log(run: open.run, open.log))
        openLog = nil
    }

    func addSource(_ take: @escaping @Sendable () -> [JournalChange]) {
        condition.lock()
        defer { condition.unlock() }
        sources.append(take)
    }

    func wake(now: Bool = false) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        if now {
            full = true
            condition.signal()
        }
        guard !woken else { return }
        woken = true
        // As for a first change: the batch is written one window from now.
        if pendingCount == 0 {
            firstPendingAt = Date()
            condition.signal()
        }
    }

    func flush(_ done: @escaping @Sendable (JournalError?) -> Void) {
        condition.lock()
        if finished {
            condition.unlock()
            done(.io("the journal \(file) is closed"))
            return
        }
        waiters.append(done)
        condition.signal()
        condition.unlock()
    }

    /// True on the journal's own thread (flush callbacks run there).
    var isCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    var batches: Int {
        condition.lock()
        defer { condition.unlock() }
        return committedBatches
    }

    /// Writes what is pending, then ends the thread; waits for it when `wait` is true.
    func close(wait: Bool) {
        condition.lock()
        closing = true
        condition.signal()
        if wait {
            while !finished { condition.wait() }
        }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while pendingCount == 0 && waiters.isEmpty && !closing && !woken { condition.wait() }
            let deadline = firstPendingAt.addingTimeInterval(window)
            while waiters.isEmpty && !closing && !full && pendingCount < batchLimit && Date() < deadline {
                _ = condition.wait(until: deadline)
            }
            // Every waiter asked before this point waits for changes recorded before it, all in
            // `batch`: the tails' too, taken under the same lock as the rest.
            takeTails()
            closeOpenLog()
            let batch = pending
            let ready = waiters
            let sources = sources
            let last = closing
            pending = []
            pendingCount = 0
            waiters = []
            woken = false
            full = false
            firstPendingAt = .distantFuture
            var outcome = failure
            condition.unlock()

            // The sources' changes first: a held-back start precedes the changes its step made
            // since (an unsafe send, a transfer), which may be in `batch`.
            let held = sources.flatMap { $0() }
            let written = !held.isEmpty || !batch.isEmpty
            if outcome == nil, written {
                outcome = write(held, batch)
                // Counted before the flushes are answered, so that a flush sees its batch counted.
                if outcome == nil {
                    condition.lock()
                    committedBatches += 1
                    condition.unlock()
                }
            }
            for done in ready { done(outcome) }

            condition.lock()
            if failure == nil { failure = outcome }
            if last && pendingCount == 0 && waiters.isEmpty { break }
        }
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func write(_ held: [JournalChange], _ batch: [PendingChange]) -> JournalError? {
        // Gathered before the transaction (deferred changes made, step changes encoded), so that
        // other processes' writes wait only for the statements.
        var gathered = GatheredChanges()
        for change in held { gathered.add(change) }
        for pending in batch { gathered.add(pending) }
        do {
            try database.write { db in try ChangeWriter(db).write(gathered) }
            return nil
        } catch {
            return JournalError.from(error, file: file)
        }
    }
}

/// A recorded change waiting for the journal's thread: a run's step changes already encoded, or
/// any other change as it was recorded.
enum PendingChange {
    case log(run: String, StepLogEncoder)
    case change(JournalChange)
    /// Step changes of `run` taken from a tail (see `Journal.addTail`), encoded when written.
    case encode(run: String, @Sendable (inout StepLogEncoder) -> Void)
}

extension JournalChange {
    /// The run of a change the step log holds (a start, a finish, an unsafe send, a transfer); nil
    /// for the others.
    var stepLogRun: String? {
        switch self {
        case .stepStarted(let run, _, _, _, _), .stepFinished(let run, _, _, _, _, _, _, _, _),
            .unsafeSend(let run, _, _, _), .transfer(let run, _, _, _, _, _, _):
            run
        case .runFinished, .stepHashes, .sharedStepHashes, .pruneRuns, .deferred:
            nil
        }
    }
}
