#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// POSIX `read`, named apart from `FileContents.read(path:limit:)`, which would shadow it there.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Reads a whole file with POSIX calls (FlowDSL does not import Foundation), refusing what is
/// not a regular file (a directory, a named pipe, a device, a socket) and files above a size
/// limit before reading them.
enum FileContents {

    struct Problem: Error {
        let message: String
        let hint: String?
    }

    static func read(path: String, limit: Int) -> Result<[UInt8], Problem> {
        // Without O_NONBLOCK, opening a named pipe waits for a writer, for ever if none comes;
        // with it the open returns at once and the type check below refuses the pipe. Reading a
        // regular file ignores the flag.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            return .failure(Problem(message: "cannot read '\(path)': \(reason)", hint: nil))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(Problem(message: "cannot read '\(path)': \(String(cString: strerror(errno)))", hint: nil))
        }
        if let kind = notRegular(status.st_mode) {
            return .failure(
                Problem(
                    message: "'\(path)' is \(kind), not a workflow file",
                    hint: kind == "a directory" ? nil : "flow reads workflows from regular files; save it to one first")
            )
        }
        if Int(status.st_size) > limit {
            return .failure(
                Problem(
                    message:
                        "'\(path)' is \(status.st_size) bytes; flow reads workflows of at most \(SizeSyntax.format(limit))",
                    hint: "see \"Limits\" in Grammar.md"
                ))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(
                    Problem(message: "cannot read '\(path)': \(String(cString: strerror(errno)))", hint: nil))
            }
            if count == 0 { break }
            bytes += buffer[0..<count]
            // /proc files report no size up front; stop at the limit anyway.
            if bytes.count > limit {
                return .failure(
                    Problem(
                        message: "'\(path)' is larger than \(SizeSyntax.format(limit)), the most flow reads",
                        hint: "see \"Limits\" in Grammar.md"
                    ))
            }
        }
        return .success(bytes)
    }

    /// What a file of mode `mode` is, when it is not a regular file: "a named pipe", ….
    private static func notRegular(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a named pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }
}
