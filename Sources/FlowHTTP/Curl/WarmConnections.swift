internal import CCurlShim
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// TCP connections opened ahead of the requests that will use them (`HTTPClient.openAhead`), kept
/// until curl asks for a socket to their address (see `Transfer.openSocket`), then handed to it
/// already connected: the request that takes one pays no connection set-up, which over a slow
/// link is a round trip (issue 32).
///
/// Confined to the loop thread: curl's open-socket callback runs there, and new sockets come in
/// through the loop's inbox. A socket is handed over only once its connection is made and the
/// server has neither written nor closed it; one older than `maxAge` is closed unused instead
/// (servers close connections that send nothing for a while).
final class WarmConnections {
    /// A socket connecting, or connected, to `address` (the bytes of its `sockaddr`), for the
    /// transfers whose id is above `after`: not for the request whose start opened it, which
    /// opens or reuses its own.
    struct Socket: Sendable {
        let address: [UInt8]
        let descriptor: Int32
        let opened: ContinuousClock.Instant
        var after = 0
    }

    /// How long an unused socket is kept.
    static let maxAge: Duration = .seconds(10)

    private var sockets: [Socket] = []

    /// Keeps `new` for the requests to come.
    func add(_ new: [Socket]) {
        sockets += new
    }

    /// A connected socket to the `length` bytes of `sockaddr` at `address` for the transfer
    /// `transfer`, removed from the pool; nil when there is none (curl then opens its own). One
    /// still connecting stays for a later request; a stale or broken one is closed.
    func take(address: UnsafeRawPointer, length: Int, transfer: Int) -> Int32? {
        guard !sockets.isEmpty else { return nil }
        let key = Array(UnsafeRawBufferPointer(start: address, count: length))
        var index = 0
        while index < sockets.count {
            let socket = sockets[index]
            guard socket.address == key, socket.after < transfer else {
                index += 1
                continue
            }
            switch Self.state(of: socket) {
            case .connecting:
                index += 1
            case .ready:
                sockets.remove(at: index)
                return socket.descriptor
            case .unusable:
                sockets.remove(at: index)
                close(socket.descriptor)
            }
        }
        return nil
    }

    /// Closes every socket no request took.
    func closeAll() {
        Self.discard(sockets)
        sockets = []
    }

    /// Closes `sockets` (opened for a client that has shut down since).
    static func discard(_ sockets: [Socket]) {
        for socket in sockets { close(socket.descriptor) }
    }

    private enum State { case connecting, ready, unusable }

    /// Ready: connected, young enough, and nothing from the server yet (no data, no end, no error).
    private static func state(of socket: Socket) -> State {
        guard ContinuousClock.now - socket.opened < maxAge else { return .unusable }
        var entry = pollfd(fd: socket.descriptor, events: Int16(POLLOUT | POLLIN), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return .unusable }
        if entry.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { return .unusable }
        guard entry.revents & Int16(POLLOUT) != 0 else { return .connecting }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(socket.descriptor, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0
            ? .ready : .unusable
    }

    /// Resolves `host` and starts `count` non-blocking connections to its first address (the one
    /// curl tries first). Blocks on the resolver: call it off the loop thread and off Dispatch.
    static func open(host: String, port: Int, count: Int) -> [Socket] {
        #if canImport(Glibc)
            return openLinux(host: host, port: port, count: count)
        #else
            return []  // Opening ahead is an optimisation; elsewhere curl opens every connection.
        #endif
    }

    #if canImport(Glibc)
        private static func openLinux(host: String, port: Int, count: Int) -> [Socket] {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_ADDRCONFIG
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(list) }
            guard let address = first.pointee.ai_addr else { return [] }
            let length = Int(first.pointee.ai_addrlen)
            let key = Array(UnsafeRawBufferPointer(start: address, count: length))
            var opened: [Socket] = []
            for _ in 0..<count {
                let descriptor = socket(
                    first.pointee.ai_family,
                    Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                    first.pointee.ai_protocol)
                guard descriptor >= 0 else { break }
                if connect(descriptor, address, socklen_t(length)) != 0, errno != EINPROGRESS {
                    close(descriptor)
                    break
                }
                opened.append(Socket(address: key, descriptor: descriptor, opened: .now))
            }
            return opened
        }
    #endif
}
