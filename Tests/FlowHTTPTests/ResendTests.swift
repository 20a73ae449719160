import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// A request whose kept-alive connection dies after the request went out, before any answer:
/// libcurl silently sends it again on a fresh connection, unless `mayResendBody` is off (upload
/// chunks, which the server may have stored).
@Suite struct ResendTests {
    @Test func aBodyThatMayNotBeResentFailsInsteadOfGoingOutTwice() async throws {
        let server = try SilentSecondAnswerServer()
        let client = HTTPClient()
        defer { client.shutdown() }
        _ = try await client.execute(HTTPRequest(method: "PUT", url: server.url, body: .bytes([1, 2, 3]))).value
        var second = HTTPRequest(method: "PUT", url: server.url, body: .bytes(Array(repeating: 7, count: 1000)))
        second.mayResendBody = false
        let error = try #require(await httpError(client.execute(second)))
        #expect(error.kind == .connectionReset, "\(error)")
        #expect(error.message.contains("closed before any answer came"), "\(error)")
        #expect(server.requests() == 2, "the second request went out once")
    }

    @Test func byDefaultLibcurlSendsTheRequestAgainByItself() async throws {
        let server = try SilentSecondAnswerServer()
        let client = HTTPClient()
        defer { client.shutdown() }
        _ = try await client.execute(HTTPRequest(method: "PUT", url: server.url, body: .bytes([1, 2, 3]))).value
        let second = HTTPRequest(method: "PUT", url: server.url, body: .bytes(Array(repeating: 7, count: 1000)))
        let response = try await client.execute(second).value
        #expect(response.status == 200)
        #expect(server.requests() == 3, "the second request went out twice")
    }
}

/// A loopback HTTP/1.1 server on its own thread (blocking I/O, no Dispatch worker): it answers
/// every request with 200, except the second one, after which it closes the connection unanswered.
final class SilentSecondAnswerServer: Sendable {
    private let listener: Int32
    private let count = LockedBox(0)
    let url: String

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, listen(descriptor, 8) == 0 else { throw TestFailure("listen failed") }
        listener = descriptor
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/chunk"
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { close(listener) }

    /// How many whole requests arrived.
    func requests() -> Int { count.withLock { $0 } }

    private func serve() {
        // Three connections at most in these tests; a bounded wait on each accept.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(listener, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        for _ in 0..<3 {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer: [UInt8] = []
            while let request = Self.readRequest(connection, &buffer) {
                _ = request
                let number = count.withLock { count in
                    count += 1
                    return count
                }
                if number == 2 { break }
                let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
                _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            close(connection)
        }
    }

    /// Reads one request (headers and `Content-Length` body); nil at the end of the connection.
    private static func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> Bool? {
        let separator = Array("\r\n\r\n".utf8)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func fill() -> Bool {
            let got = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { return false }
            buffer += chunk[0..<got]
            return true
        }
        var end: Int?
        while end == nil {
            if let range = buffer.firstRange(of: separator) { end = range.upperBound } else if !fill() { return nil }
        }
        guard let end else { return nil }
        let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while buffer.count < end + length {
            if !fill() { return nil }
        }
        buffer.removeFirst(end + length)
        return true
    }
}
