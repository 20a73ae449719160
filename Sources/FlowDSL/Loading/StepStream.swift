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
/// The composer hands over each entry of the workflow's `steps:` mapping as soon as the step's
/// value is built, in batches; the thread parses them in file order with a `StepParser` of its
/// own. Its diagnostics and settings come after the workflow's top-level ones, as when the
/// steps were parsed last on one thread, so the messages are the same and in the same order.
/// Whatever the stream cannot give as the one-thread parse would (a key written as a
/// collection, a file that is not valid YAML) makes it give nothing, and the steps are parsed
/// from the finished tree as before.
///
/// `@unchecked Sendable`: `pending`, `ended` and `abandoned` are touched only while `mutex` is
/// held; `batch`, `opened` and `worker` only by the composer's thread.
final class StepStream: @unchecked Sendable {
    /// Files of at least this many bytes have their steps parsed this way: below it a thread
    /// costs more than it saves.
    static let threshold = 128 * 1024
    /// Steps handed over at once: one wake-up of the thread for this many. Waking a thread that
    /// sleeps costs a system call and, in a virtual machine, an interrupt to another processor:
    /// with batches of 64 the layered DAG took 32.7 ms beyond start-up, with 512 28.5 ms
    /// (BENCHMARKS.md, Validate, "round eleven"). The steps left to parse once the last byte is
    /// read are then at most about a millisecond's work.
    static let batchSize = 512

    /// What the thread made: the top-level steps in file order, and the diagnostics and settings
    /// its reader recorded while parsing them.
    struct Parsed: Sendable {
        let steps: [Step]
        let diagnostics: [Diagnostic]
        let settings: [SettingExpression]
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending: [Node.Pair] = []
    private var ended = false
    private var abandoned = false
    private var batch: [Node.Pair] = []
    private var opened = false
    private var worker: SecondCore<Parsed?>?

    /// A stream for the steps of `file`, its thread started; nil when not `wanted` or when no
    /// thread can be made.
    static func start(file: String, wanted: Bool) -> StepStream? {
        guard wanted else { return nil }
        let stream = StepStream()
        guard let worker = SecondCore.start({ stream.parse(file: file) }) else { return nil }
        stream.worker = worker
        return stream
    }

    private init() {
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
        opened = true
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

    /// Waits for the thread to parse what was sent and returns it; nil when the stream was
    /// abandoned, when the file had no `steps:` mapping to stream, or when `keep` is false (the
    /// file is refused: its steps are not wanted).
    func finish(keep: Bool) -> Parsed? {
        if !keep { abandon() }
        handOver(end: true)
        let parsed = worker?.join() ?? nil
        return opened ? parsed : nil
    }

    private func handOver(end: Bool) {
        locked {
            if pending.isEmpty {
                swap(&pending, &batch)
            } else {
                pending += batch
                batch.removeAll(keepingCapacity: true)
            }
            if end { ended = true }
            pthread_cond_signal(condition)
        }
    }

    // MARK: The thread's side

    private func parse(file: String) -> Parsed? {
        var parser = StepParser(reader: NodeReader(file: file))
        var steps: [Step] = []
        while let entries = next() {
            for entry in entries {
                if let step = parser.parseStep(entry, parent: nil) { steps.append(step) }
            }
        }
        guard !locked({ abandoned }) else { return nil }
        return Parsed(steps: steps, diagnostics: parser.reader.diagnostics, settings: parser.reader.settings)
    }

    /// The entries sent since the last call, waiting for some; nil once the stream has ended
    /// and all are taken, or is abandoned.
    private func next() -> [Node.Pair]? {
        locked {
            while pending.isEmpty && !ended && !abandoned { pthread_cond_wait(condition, mutex) }
            guard !abandoned, !pending.isEmpty else { return nil }
            var taken: [Node.Pair] = []
            swap(&taken, &pending)
            return taken
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
