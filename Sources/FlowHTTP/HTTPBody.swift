/// What a request sends after its headers.
package enum HTTPBody: Sendable, Equatable {
    /// No body.
    case empty
    /// Bytes held in memory.
    case bytes([UInt8])
    /// The first `count` bytes of memory the caller reuses for its next request (see
    /// `ReusableBytes` for when it may write them).
    case reused(ReusableBytes, count: Int)
    /// `length` bytes of the file at `path` from `offset`, read from disk as curl sends them, so
    /// memory stays flat whatever the size.
    case file(path: String, offset: Int64, length: Int64)
    /// `multipart/form-data` parts, framed by libcurl's MIME API; file parts are read from disk
    /// as they are sent. libcurl sets the `Content-Type` header with its boundary.
    case multipart([MultipartField])

    /// How many bytes the body holds (for `multipart`, the parts' contents without their framing).
    package var count: Int64 {
        switch self {
        case .empty: return 0
        case .bytes(let bytes): return Int64(bytes.count)
        case .reused(_, let count): return Int64(count)
        case .file(_, _, let length): return length
        case .multipart(let fields): return fields.reduce(0) { $0 + $1.size }
        }
    }
}
