import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 at a port the kernel chose: what the tests' own small
/// servers accept on. `type` adds flags to `SOCK_STREAM` (such as `SOCK_CLOEXEC`).
public struct ListeningSocket: Sendable {
    /// The listening socket; its owner closes it.
    public let descriptor: Int32
    /// The port the kernel gave it.
    public let port: Int

    /// Listens with room for `backlog` connections not yet accepted.
    public init(backlog: Int32, type: Int32 = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | type, 0)
        guard listener >= 0 else { throw TestFailure("socket() failed") }
        var address = Self.address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ready = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, backlog) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        guard ready else {
            close(listener)
            throw TestFailure("cannot listen on loopback")
        }
        descriptor = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The address of `port` on 127.0.0.1.
    public static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }
}
