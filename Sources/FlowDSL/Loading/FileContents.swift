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

/// Reads a whole file with POSIX calls (FlowDSL does not import Foundation), refusing
/// directories and files above a size limit before reading them.
enum FileContents {

    struct Problem: Error {
        let message: String
        let hint: String?
    }

    static func read(path: String, limit: Int) -> Result<[UInt8], Problem> {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno))
            return .failure(Problem(message: "cannot read '\(path)': \(reason)", hint: nil))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            return .failure(Problem(message: "cannot read '\(path)': \(String(cString: strerror(errno)))", hint: nil))
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            return .failure(Problem(message: "'\(path)' is a directory, not a workflow file", hint: nil))
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
            // Named pipes and /proc files report no size up front; stop at the limit anyway.
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
}
