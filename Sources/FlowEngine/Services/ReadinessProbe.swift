import Dispatch
import FlowHTTP
import FlowTasks
import Foundation

/// Polls a readiness check on its queue until it passes; nothing ever blocks while waiting.
///
/// Every `interval` (`asyncAfter` on the probe's queue) it tries once: a non-blocking TCP connect
/// to 127.0.0.1, or an HTTP GET through `HTTPClient` (any 2xx passes; the next try is scheduled when
/// the answer is in, so tries never pile up).
final class ReadinessProbe: Sendable {
    private let check: ReadinessCheck
    private let client: HTTPClient
    private let interval: Duration
    private let queue: DispatchQueue
    private let promise: Promise<Void>
    /// The request in flight, to abort when the probe is cancelled.
    private let inFlight = LockedBox<Future<HTTPResponse>?>(nil)

    private init(
        _ check: ReadinessCheck, client: HTTPClient, interval: Duration, queue: DispatchQueue, promise: Promise<Void>
    ) {
        self.check = check
        self.client = client
        self.interval = interval
        self.queue = queue
        self.promise = promise
    }

    /// A future that succeeds once `check` passes. It never fails by itself: bound it with
    /// `timeout(after:)`. Cancelling it stops the polling and aborts the request in flight.
    static func poll(
        _ check: ReadinessCheck, client: HTTPClient, interval: Duration = .milliseconds(75), queue: DispatchQueue
    ) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        let probe = ReadinessProbe(check, client: client, interval: interval, queue: queue, promise: promise)
        promise.onCancel { probe.inFlight.withLock { $0 }?.cancel() }
        queue.async { probe.tick() }
        return promise.future
    }

    private func tick() {
        guard !promise.isCompleted else { return }
        switch check {
        case .port(let port):
            if Self.accepts(port: port) {
                promise.succeed(())
            } else {
                scheduleNext()
            }
        case .http(let url):
            let response = client.execute(
                HTTPRequest(url: url, timeout: .seconds(2), connectTimeout: .seconds(1), followRedirects: true))
            inFlight.withLock { $0 = response }
            response.whenComplete(on: queue) { result in
                self.inFlight.withLock { $0 = nil }
                if case .success(let answer) = result, (200..<300).contains(answer.status) {
                    self.promise.succeed(())
                } else {
                    self.scheduleNext()
                }
            }
        }
    }

    private func scheduleNext() {
        queue.asyncAfter(deadline: .now() + interval.dispatchInterval) { self.tick() }
    }

    /// Whether 127.0.0.1:`port` accepts a TCP connection right now. The socket is non-blocking:
    /// on loopback the kernel answers within `connect`; a handshake still in progress is checked
    /// with a zero-timeout `poll` and otherwise counts as not yet.
    static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, SystemCall.streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard SystemCall.poll(&descriptor, 1, 0) == 1 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0
    }
}
