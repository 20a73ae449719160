#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file an upload sends, as it was when the upload started: its size and modification time.
///
/// Checked again before every chunk and at the end, so a file that is rewritten while it is being
/// sent fails the step instead of leaving a torn copy on the server.
struct UploadFile: Sendable {
    /// The path as the step gave it, after expressions.
    let path: String
    /// Its size in bytes when the upload started.
    let size: Int64
    private let identity: Identity

    private struct Identity: Equatable {
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
        var inode: UInt64
    }

    /// Reads the file's size and modification time; fails with a message when it is missing, not a
    /// regular file, or unreadable.
    init(path: String) throws(UploadFileError) {
        self.path = path
        identity = try Self.identity(of: path)
        size = identity.size
        guard access(path, R_OK) == 0 else {
            throw UploadFileError(message: "cannot read '\(path)': \(Self.systemError())")
        }
    }

    /// The file's path, size, modification time and inode as one text: a resumed run continues an
    /// earlier run's upload session only for the same text (see `TransferSession.fileIdentity`).
    var identityText: String {
        "\(path)|\(identity.size)|\(identity.modifiedSeconds).\(identity.modifiedNanoseconds)|\(identity.inode)"
    }

    /// Fails when the file's size or modification time moved since the upload started.
    func checkUnchanged() throws(UploadFileError) {
        let now = try Self.identity(of: path)
        guard now == identity else {
            let what =
                now.size != identity.size
                ? "its size went from \(identity.size) to \(now.size) bytes" : "it was modified"
            throw UploadFileError(
                message: "'\(path)' changed while it was being uploaded (\(what)); the upload was stopped rather than "
                    + "leave a torn copy on the server")
        }
    }

    private static func identity(of path: String) throws(UploadFileError) -> Identity {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw UploadFileError(message: "cannot read '\(path)': \(systemError())")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw UploadFileError(message: "'\(path)' is not a regular file")
        }
        let modified = SystemCall.modificationTime(info)
        return Identity(
            size: Int64(info.st_size), modifiedSeconds: Int(modified.tv_sec),
            modifiedNanoseconds: Int(modified.tv_nsec),
            inode: UInt64(info.st_ino))
    }

    private static func systemError() -> String {
        String(cString: strerror(errno))
    }
}

/// Why an upload's file cannot be sent (or can no longer be).
struct UploadFileError: Error {
    let message: String
}
