#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The C library's calls that flow's own declarations of the same name hide (a type's `close()`,
/// `pipe()`, `bind(port:)`…), reached by names of their own, spelled for Linux's Glibc and Apple's
/// Darwin alike: nothing outside this file names a C library module (`PlatformSourceTests`).
enum SystemCall {
    /// `SOCK_STREAM` as `socket` and `socketpair` take it (an enum in Glibc, an Int32 in Darwin).
    static var streamSocket: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// `poll(2)`.
    static func poll(_ descriptors: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.poll(descriptors, nfds_t(count), timeout)
        #else
            Darwin.poll(descriptors, nfds_t(count), timeout)
        #endif
    }

    /// `bind(2)`.
    static func bind(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
            Glibc.bind(socket, address, length)
        #else
            Darwin.bind(socket, address, length)
        #endif
    }

    /// `send(2)` that never raises SIGPIPE when the reader is gone (it fails with EPIPE instead):
    /// `MSG_NOSIGNAL` on Linux; Darwin has no such flag, and marks the socket `SO_NOSIGPIPE`.
    static func sendWithoutSignal(_ socket: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.send(socket, bytes, count, Int32(MSG_NOSIGNAL))
        #else
            var on: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            return Darwin.send(socket, bytes, count, 0)
        #endif
    }

    /// `close(2)`.
    @discardableResult
    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    /// `pipe(2)`: the read end, then the write end, in `ends`.
    static func pipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 {
        #if canImport(Glibc)
            Glibc.pipe(ends)
        #else
            Darwin.pipe(ends)
        #endif
    }
}
