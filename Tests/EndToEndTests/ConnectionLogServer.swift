import FlowTasks
import FlowTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP/1.1 server that logs, in order, each connection it accepts and each request
/// (connection, method, path) it reads, and answers every request `200` with `{"token":"t"}` on a
/// kept-alive connection. It holds the answer to `GET /login` until it has accepted
/// `holdLoginFor` connections or `holdLimit` has passed, and logs how many it had then: that shows
/// whether a client opened a connection while its first request was still unanswered. Answers to
/// the paths in `together` wait until all of them have arrived (within `holdLimit` too), so a
/// client cannot send them one after another on one connection.
///
/// Plain threads with blocking calls (one to accept, one per connection): not Dispatch workers or
/// Swift concurrency threads, so blocking starves nothing.
final class ConnectionLogServer: Sendable {
    /// What the server saw, in order.
    enum Entry: Sendable, Equatable {
        case accepted(connection: Int)
        case request(connection: Int, method: String, path: String)
        /// The answer to `/login` left with this many connections accepted.
        case loginAnswered(connectionsAccepted: Int)
    }

    let port: Int
    private let listener: Int32
    private let holdLoginFor: Int
    private let holdLimit: Duration
    private let together: Set<String>
    private let log = LockedBox<[Entry]>([])
    private let finished = DispatchSemaphore(value: 0)

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var entries: [Entry] { log.withLock { $0 } }
    private var receivedPaths: Set<String> {
        log.withLock { entries in
            Set(entries.compactMap { if case .request(_, _, let path) = $0 { path } else { nil } })
        }
    }
    private var acceptedCount: Int {
        log.withLock { entries in entries.filter { if case .accepted = $0 { true } else { false } }.count }
    }

    init(holdLoginFor: Int, holdLimit: Duration, together: Set<String> = []) throws {
        let listening = try ListeningSocket(backlog: 16, type: Int32(SOCK_CLOEXEC.rawValue))
        let listener = listening.descriptor
        self.listener = listener
        self.holdLoginFor = holdLoginFor
        self.holdLimit = holdLimit
        self.together = together
        port = listening.port
        let thread = Thread { [self] in acceptAll() }
        thread.name = "connection-log-server"
        thread.start()
    }

    /// Stops accepting and waits (at most 5 s) for the accepting thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
    }

    private func acceptAll() {
        defer {
            close(listener)
            finished.signal()
        }
        var count = 0
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            count += 1
            let number = count
            log.withLock { $0.append(.accepted(connection: number)) }
            let thread = Thread { [self] in serve(connection, number: number) }
            thread.start()
        }
    }

    /// Reads requests (head, then a `Content-Length` body) until the client closes, answering each.
    private func serve(_ connection: Int32, number: Int) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while true {
            while pending.firstRange(of: end) == nil {
                let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            let headEnd = pending.firstRange(of: end)!.upperBound
            let head = String(decoding: pending[..<headEnd], as: UTF8.self)
            let lines = head.split(separator: "\r\n")
            let requestLine = lines.first.map { $0.split(separator: " ") } ?? []
            let length =
                lines.dropFirst().compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                    return Int(parts[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            while pending.count < headEnd + length {
                let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            pending.removeFirst(headEnd + length)
            let method = requestLine.first.map(String.init) ?? ""
            let path = requestLine.count > 1 ? String(requestLine[1]) : ""
            log.withLock { $0.append(.request(connection: number, method: method, path: path)) }
            if path == "/login" {
                let deadline = ContinuousClock.now + holdLimit
                while acceptedCount < holdLoginFor, ContinuousClock.now < deadline { usleep(5_000) }
                let accepted = acceptedCount
                log.withLock { $0.append(.loginAnswered(connectionsAccepted: accepted)) }
            }
            if together.contains(path) {
                let deadline = ContinuousClock.now + holdLimit
                while ContinuousClock.now < deadline, !together.isSubset(of: receivedPaths) { usleep(5_000) }
            }
            let body = #"{"token":"t"}"#
            let answer = Array(
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                    .utf8)
            var sent = 0
            while sent < answer.count {
                let count = answer.withUnsafeBytes {
                    send(connection, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
