import Dispatch
import FlowTasks
import Foundation

/// The read end of one of a command's output pipes, created and owned by flow (not by
/// swift-subprocess, whose own pipes trap in their deinit when a later one cannot be made: see
/// `CommandPipes`), read without ever blocking a thread.
///
/// `next()` reads what is there; when the pipe is empty it waits, suspended, for a dispatch read
/// source to say it is readable. Nothing is read while nobody asks, so a command that prints
/// faster than its lines are consumed waits on its full pipe. `finish()` (the command has exited)
/// makes the reader return what is still buffered and then end, even while a process that escaped
/// the command's group keeps the pipe open.
///
/// `@unchecked Sendable`: the read source is resumed, suspended and cancelled only while `state`'s
/// lock is held, which is what keeps its resume count balanced; the rest is immutable.
final class PipeReader: @unchecked Sendable {
    private struct State {
        var waiter: CheckedContinuation<Void, Never>?
        /// Whether the read source is resumed (armed to report readability).
        var armed = false
        var finishing = false
        var closed = false
    }

    private let descriptor: Int32
    private let source: any DispatchSourceRead
    private let state = LockedBox(State())
    private static let queue = DispatchQueue(label: "flow.pipes")
    /// The most bytes one `next()` returns.
    private static let chunk = 64 * 1024

    /// Takes ownership of `descriptor` (made non-blocking here); `close()` closes it.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: Self.queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let waiter = self.state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.armed, !state.closed {
                    state.armed = false
                    self.source.suspend()
                }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
        source.setCancelHandler { _ = Glibc.close(descriptor) }
    }

    /// The next bytes, or nil at the end of the stream (or once `finish()` was called and what was
    /// buffered has been returned). Cancelling the task finishes the reader.
    func next() async -> [UInt8]? {
        while true {
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
            await readable()
        }
    }

    /// No more waiting: what is buffered is still returned, then the reader ends.
    func finish() {
        state.withLock { state in
            state.finishing = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Ends the reader and closes the descriptor (once; later calls do nothing).
    func close() {
        let source = source
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            state.closed = true
            source.cancel()
            // A suspended source must be resumed to run its cancel handler (which closes the
            // descriptor) and before it may be released.
            if !state.armed {
                state.armed = true
                source.resume()
            }
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    private func readable() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.finishing || state.closed { return true }
                    state.waiter = continuation
                    if !state.armed {
                        state.armed = true
                        source.resume()
                    }
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            finish()
        }
    }
}
