#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Work of a large file's check done on a thread of its own, so that the check uses a second
/// core (issue 32): the steps parsed while the YAML is still being read (`StepStream`), and the
/// expression check beside the other checks. A plain thread, not a Dispatch worker: its owner
/// waits for it with `join()`, and a Dispatch worker must never be held waiting.
///
/// `@unchecked Sendable`: `result` is written by the thread before it ends and read only after
/// `pthread_join` has returned, which orders the two.
final class SecondCore<Result: Sendable>: @unchecked Sendable {
    /// The thread's stack: the main thread's usual 8 MiB, for the same nesting of steps.
    static var stackSize: Int { 8 << 20 }

    private let body: @Sendable () -> Result
    private var result: Result?
    private var thread: pthread_t?

    /// `body` started on a thread of its own; nil when no thread could be made (the caller then
    /// does the work itself).
    static func start(_ body: @escaping @Sendable () -> Result) -> SecondCore? {
        let work = SecondCore(body)
        guard let thread = ThreadStart.spawn(stackSize: stackSize, { work.result = work.body() }) else { return nil }
        work.thread = thread
        return work
    }

    private init(_ body: @escaping @Sendable () -> Result) {
        self.body = body
    }

    /// Waits for the thread to end and returns what it computed.
    func join() -> Result {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        return result!
    }
}

/// Starts a POSIX thread running a closure (what `pthread_create` needs: a C function and a
/// pointer, here this object, kept alive until the thread has taken it).
private final class ThreadStart {
    private let body: () -> Void

    private init(_ body: @escaping () -> Void) {
        self.body = body
    }

    /// The thread running `body`; nil when none could be made.
    static func spawn(stackSize: Int, _ body: @escaping () -> Void) -> pthread_t? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        let context = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, run, context) == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private static let run: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        guard let context else { return nil }
        Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }
}
