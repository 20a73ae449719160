#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A large workflow's top-level steps parsed on a second core while `YAMLComposer` is still
/// reading the file (issue 32: reading the YAML was a third of `flow validate`'s time on a
/// 10,000-step file, parsing the steps another third, one after the other on one core).
///
/// The composer hands over the entries of the workflow's `steps:` mapping in batches, each as
/// soon as its steps' values are built; the thread parses batch after batch with a
/// `StepParser` of its own. Once the file is read, the composer's thread takes batches too
/// (`finish`), so neither core waits while steps are left. Each batch's steps, diagnostics and
/// settings are kept apart and put together in file order after the workflow's top-level
/// ones, as when the steps were parsed last on one thread: the messages are the same and in the
/// same order. Whatever the stream cannot give as the one-thread parse would (a key written as
/// a collection, a file that is not valid YAML) makes it give nothing, and the steps are parsed
/// from the finished tree as before.
///
/// `@unchecked Sendable`: `pending`, `nextBatch`, `parts`, `ended` and `abandoned` are touched
/// only while `mutex` is held; `batch`, `isOpen` and `worker` only by the composer's thread.
final class StepStream: @unchecked Sendable {
    /// Files of at least this many bytes have their steps parsed this way: below it a thread
    /// costs more than it saves.
    static let threshold = 128 * 1024
    /// Steps handed over at once: one wake-up of the thread for this many. Waking a thread that
    /// sleeps costs a system call and, in a virtual machine, an interrupt to another processor:
    /// with batches of 64 the layered DAG took 32.7 ms beyond start-up, with 512 28.5 ms
    /// (BENCHMARKS.md, Validate, "round eleven").
    static let batchSize = 512

    /// The top-level steps in file order, and the diagnostics and settings recorded while
    /// parsing them.
    struct Parsed: Sendable {
        var steps: [Step] = []
        var diagnostics: [Diagnostic] = []
        var settings: [SettingExpression] = []
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Batches handed over and not yet taken, oldest first.
    private var pending: [[Node.Pair]] = []
    /// The number the next batch handed over gets (batches are put together by it).
    private var nextBatch = 0
    /// How many batches have been taken (the next one taken has this number).
    private var taken = 0
    /// What each parsed batch gave, by its number.
    private var parts: [Int: Parsed] = [:]
    private var ended = false
    private var abandoned = false
    private var batch: [Node.Pair] = []
    /// Whether the composer has started the `steps:` mapping (`open()`).
    private(set) var isOpen = false
    private var worker: SecondCore<Void>?
    private let file: String

    /// A stream for the steps of `file`, its thread started; nil when not `wanted` or when no
    /// thread can be made.
    static func start(file: String, wanted: Bool) -> StepStream? {
        guard wanted else { return nil }
        let stream = StepStream(file: file)
        guard let worker = SecondCore.start({ stream.parseBatches(waiting: true) }) else { return nil }
        stream.worker = worker
        return stream
    }

    private init(file: String) {
        self.file = file
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        batch.reserveCapacity(Self.batchSize)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    // MARK: The composer's side

    /// The composer starts the workflow's `steps:` mapping: what is sent from now on are its entries.
    func open() {
        isOpen = true
    }

    /// One entry of the `steps:` mapping, its value complete.
    func send(key: Node, value: Node) {
        batch.append(Node.Pair(keyNode: key, value: value))
        if batch.count == Self.batchSize { handOver(end: false) }
    }

    /// The stream cannot give what the one-thread parse would: it stops, and gives nothing.
    func abandon() {
        batch.removeAll()
        locked {
            abandoned = true
            pthread_cond_signal(condition)
        }
    }

    /// Parses, beside the thread, the batches it has not taken yet, waits for it, and returns
    /// every step sent; nil when the stream was abandoned, when the file had no `steps:` mapping
    /// to stream, or when `keep` is false (the file is refused: its steps are not wanted).
    func finish(keep: Bool) -> Parsed? {
        if !keep { abandon() }
        handOver(end: true)
        parseBatches(waiting: false)
        worker?.join()
        return locked { () -> Parsed? in
            guard isOpen, !abandoned else { return nil }
            var parsed = Parsed()
            for number in 0..<nextBatch {
                guard let part = parts[number] else { continue }
                parsed.steps += part.steps
                parsed.diagnostics += part.diagnostics
                parsed.settings += part.settings
            }
            return parsed
        }
    }

    private func handOver(end: Bool) {
        let entries = batch
        batch.removeAll(keepingCapacity: true)
        locked {
            if !entries.isEmpty {
                pending.append(entries)
                nextBatch += 1
            }
            if end { ended = true }
            pthread_cond_signal(condition)
        }
    }

    // MARK: Parsing, on either thread

    /// Parses batches as they come, each with its number, until none is left; `waiting`, the
    /// thread waits for more until the stream ends, and the composer's thread takes only what
    /// is there.
    private func parseBatches(waiting: Bool) {
        var parser = StepParser(reader: NodeReader(file: file))
        while let (number, entries) = next(waiting: waiting) {
            var part = Parsed()
            for entry in entries {
                if let step = parser.parseStep(entry, parent: nil) { part.steps.append(step) }
            }
            part.diagnostics = parser.reader.diagnostics
            part.settings = parser.reader.settings
            parser.reader.diagnostics.removeAll()
            parser.reader.settings.removeAll()
            locked { parts[number] = part }
        }
    }

    /// The oldest batch not taken, with its number; nil once the stream is abandoned, or has
    /// ended (or, not `waiting`, has nothing) with every batch taken.
    private func next(waiting: Bool) -> (Int, [Node.Pair])? {
        locked {
            while waiting && pending.isEmpty && !ended && !abandoned { pthread_cond_wait(condition, mutex) }
            guard !abandoned, !pending.isEmpty else { return nil }
            let number = taken
            taken += 1
            return (number, pending.removeFirst())
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
