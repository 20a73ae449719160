import FlowTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection for what URLSession hides: keep-alive reuse, hanging up, half-sent bodies.
///
/// Every blocking call runs on a thread of its own so the test never blocks the cooperative pool
/// that the in-process sandbox also runs on.
final class RawConnection: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Connects to 127.0.0.1:port.
    static func open(port: Int) async throws -> RawConnection {
        try await runOffThread {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard result == 0 else {
                _ = Glibc.close(descriptor)
                throw TestFailure("connect() failed: errno \(errno)")
            }
            return RawConnection(descriptor: descriptor)
        }
    }

    /// Sends raw bytes.
    func write(_ data: Data) async throws {
        let descriptor = self.descriptor
        try await runOffThread {
            var sent = 0
            while sent < data.count {
                let count = data.withUnsafeBytes { bytes in
                    send(descriptor, bytes.baseAddress! + sent, data.count - sent, Int32(MSG_NOSIGNAL))
                }
                guard count > 0 else { throw TestFailure("send() failed: errno \(errno)") }
                sent += count
            }
        }
    }

    /// Sends text.
    func write(_ text: String) async throws {
        try await write(Data(text.utf8))
    }

    /// Reads one response with a Content-Length body (none for HEAD: `bodyExpected: false`); nil when
    /// the server closed the connection first.
    func readResponse(bodyExpected: Bool = true) async throws -> Reply? {
        let descriptor = self.descriptor
        return try await runOffThread {
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 65536)
            func fill() throws -> Bool {
                let count = recv(descriptor, &chunk, chunk.count, 0)
                if count < 0 { throw TestFailure("recv() failed: errno \(errno)") }
                if count == 0 { return false }
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            let separator = Data("\r\n\r\n".utf8)
            while buffer.range(of: separator) == nil {
                guard try fill() else { return nil }
            }
            guard let end = buffer.range(of: separator) else { return nil }
            let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                throw TestFailure("bad status line in \(head)")
            }
            var headers: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = bodyExpected ? Int(headers["content-length"] ?? "0") ?? 0 : 0
            var body = Data(buffer[end.upperBound...])
            while body.count < length {
                let before = buffer.count
                guard try fill() else { break }
                body.append(buffer[before...])
            }
            return Reply(status: status, headers: headers, body: body.prefix(length))
        }
    }

    /// True when the server closed the connection (a read returns end of file or an error).
    func serverClosed() async -> Bool {
        let descriptor = self.descriptor
        return
            (try? await runOffThread {
                var byte: UInt8 = 0
                return recv(descriptor, &byte, 1, 0) <= 0
            }) ?? true
    }

    /// Hangs up.
    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// Runs blocking work on a thread of its own, never on the cooperative pool the sandbox runs on.
func runOffThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try work() })
        }
        thread.start()
    }
}
