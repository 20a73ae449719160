import FlowTasks
import Foundation

/// The read end of one of a command's output pipes, created and owned by flow (not by
/// swift-subprocess, whose own pipes trap in their deinit when a later one cannot be made: see
/// `CommandPipes`), read without ever blocking a thread.
///
/// `next()` reads what is there; when the pipe is empty it waits, suspended, for `PipePoller` to
/// say it is readable. Nothing is read while nobody asks, so a command that prints faster than its
/// lines are consumed waits on its full pipe. `finish()` (the command has exited) makes the reader
/// return what is still buffered and then end, even while a process that escaped the command's
/// group keeps the pipe open.
final class PipeReader: Sendable {
    private struct State {
        var finishing = false
        var closed = false
    }

    private let descriptor: Int32
    private let state = LockedBox(State())
    /// The most bytes one `next()` returns.
    private static let chunk = 64 * 1024

    /// Takes ownership of `descriptor` (made non-blocking here); `close()` closes it.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// The next bytes, or nil at the end of the stream (or once `finish()` was called and what was
    /// buffered has been returned). Cancelling the task finishes the reader.
    func next() async -> [UInt8]? {
        while true {
            guard !state.withLock({ $0.closed }) else { return nil }
            var failure: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: Self.chunk) { buffer, count in
                let got = read(descriptor, buffer.baseAddress, buffer.count)
                count = max(0, got)
                failure = got < 0 ? errno : 0
            }
            if !bytes.isEmpty { return bytes }
            if failure == 0 { return nil }
            if failure == EINTR { continue }
            guard failure == EAGAIN || failure == EWOULDBLOCK else { return nil }
            if state.withLock({ $0.finishing || $0.closed }) { return nil }
            await withTaskCancellationHandler {
                await PipePoller.shared.readable(descriptor) { self.state.withLock { $0.finishing || $0.closed } }
            } onCancel: {
                self.finish()
            }
        }
    }

    /// No more waiting: what is buffered is still returned, then the reader ends.
    func finish() {
        state.withLock { $0.finishing = true }
        PipePoller.shared.wake(descriptor)
    }

    /// Ends the reader and closes the descriptor (once; later calls do nothing). Called when
    /// nothing reads any more.
    func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        PipePoller.shared.wake(descriptor)
        SystemCall.close(descriptor)
    }
}
