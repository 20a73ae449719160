import FlowTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback server that answers every request with exactly the bytes it was given, then closes
/// the connection: for responses no real server would send (headers cut short, giant headers).
///
/// One plain thread accepts and answers connections one at a time with blocking calls; it is not
/// a Dispatch worker or a Swift concurrency thread, so blocking starves nothing.
final class RawResponseServer: Sendable {
    let port: Int
    private let listener: Int32
    private let response: [UInt8]
    private let finished = DispatchSemaphore(value: 0)

    var url: String { "http://127.0.0.1:\(port)/" }

    init(response: [UInt8]) throws {
        let listening = try ListeningSocket(backlog: 16, type: Int32(SOCK_CLOEXEC.rawValue))
        let listener = listening.descriptor
        self.listener = listener
        self.response = response
        port = listening.port
        let thread = Thread { [self] in serve() }
        thread.name = "raw-response-server"
        thread.start()
    }

    /// Stops accepting and waits (at most 5 s) for the serving thread to end.
    func stop() {
        // Wakes the blocked accept(); the thread closes the listener on its way out.
        shutdown(listener, Int32(SHUT_RDWR))
        _ = finished.wait(timeout: .now() + 5)
    }

    private func serve() {
        defer {
            close(listener)
            finished.signal()
        }
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            answer(connection)
        }
    }

    /// Reads the request's head (up to the blank line), sends the response, closes.
    private func answer(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while request.firstRange(of: end) == nil {
            let count = buffer.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        var sent = 0
        while sent < response.count {
            let count = response.withUnsafeBytes {
                send(connection, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            sent += count
        }
    }
}
