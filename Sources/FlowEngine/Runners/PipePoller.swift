internal import CThreadName
import FlowTasks
import Foundation

/// One thread of its own, blocked only in `poll`, that wakes the `PipeReader`s waiting for their
/// pipe to become readable. Never a Dispatch worker: those must not block (see DESIGN.md); and not
/// libdispatch's read sources, which crashed its manager thread when pipes were suspended, closed
/// and their numbers reused at the rate commands come and go.
final class PipePoller: Sendable {
    static let shared = PipePoller()

    /// The readers waiting, by descriptor.
    private let waiters = LockedBox<[Int32: CheckedContinuation<Void, Never>]>([:])
    /// A pipe whose read end the thread polls too: a byte written to it makes the thread look at
    /// the waiters again. Both -1 when it could not be made (out of descriptors): waits then sleep.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (wakeRead, wakeWrite) = (-1, -1)
            return
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        // Named from inside, for the system: `Thread.name` set before `start` is never applied (see
        // CThreadName.h).
        Thread { [wakeRead, waiters] in
            flow_name_this_thread("flow.pipes")
            Self.loop(wakeRead: wakeRead, waiters: waiters)
        }.start()
    }

    /// Returns once `descriptor` is readable (or at its end), or when `wake` is called for it, or
    /// at once when `stopped()` holds once the wait is registered (so a `wake` just before it is
    /// not lost). Spurious returns are possible: the caller reads again.
    func readable(_ descriptor: Int32, unless stopped: @Sendable () -> Bool) async {
        guard wakeWrite >= 0 else {
            try? await Task.sleep(for: .milliseconds(20))
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiters.withLock { $0.updateValue(continuation, forKey: descriptor) }?.resume()
            if stopped() {
                wake(descriptor)
            } else {
                nudge()
            }
        }
    }

    /// Wakes whoever waits on `descriptor` (before it is closed, or to make it stop waiting).
    func wake(_ descriptor: Int32) {
        waiters.withLock { $0.removeValue(forKey: descriptor) }?.resume()
    }

    private func nudge() {
        var byte: UInt8 = 1
        // The pipe is non-blocking: when it is full, the thread has a wake-up pending anyway.
        _ = write(wakeWrite, &byte, 1)
    }

    private static func loop(wakeRead: Int32, waiters: LockedBox<[Int32: CheckedContinuation<Void, Never>]>) {
        var drain = [UInt8](repeating: 0, count: 256)
        while true {
            var entries = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            entries += waiters.withLock { $0.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) } }
            let count = poll(&entries, nfds_t(entries.count), -1)
            guard count > 0 else { continue }
            if entries[0].revents != 0 { while read(wakeRead, &drain, drain.count) > 0 {} }
            // Readable, at its end (POLLHUP), or closed meanwhile (POLLNVAL): wake the reader.
            let ready = entries.dropFirst().filter { $0.revents != 0 }.map(\.fd)
            guard !ready.isEmpty else { continue }
            let woken = waiters.withLock { waiting in ready.compactMap { waiting.removeValue(forKey: $0) } }
            for waiter in woken { waiter.resume() }
        }
    }
}
