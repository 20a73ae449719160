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

    /// The process's environment as `execve` takes it: `environ` in Glibc; Darwin gives it
    /// through `_NSGetEnviron()` and has no `environ` to link against.
    static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Glibc)
            environ
        #else
            _NSGetEnviron().pointee
        #endif
    }

    /// `posix_spawn(2)` of `arguments` (the first is the executable's path) with this process's
    /// environment, `input` as its standard input and `/dev/null` as its standard output and
    /// error; the call's result (0, or an error number) and the child's pid. The file actions are
    /// a struct in Glibc and an opaque pointer in Darwin (`nil` until `posix_spawn_file_actions_init`).
    static func spawn(_ arguments: [String], input: Int32) -> (result: Int32, pid: pid_t) {
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 onto 0 clears close-on-exec there; everything else of flow's closes on exec.
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environment)
        return (result, pid)
    }

    /// A file's modification time from `stat(2)`: `st_mtim` in Glibc, `st_mtimespec` in Darwin.
    static func modificationTime(_ info: stat) -> timespec {
        #if canImport(Glibc)
            info.st_mtim
        #else
            info.st_mtimespec
        #endif
    }
}
