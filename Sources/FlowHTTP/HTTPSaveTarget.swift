/// Where a response body goes instead of memory: a file on disk, written as it arrives, so memory
/// stays flat whatever the size (`HTTPRequest.saveTo`).
///
/// Only a successful (2xx) response is written to the file; any other status keeps its body in
/// memory (under `maxResponseBodySize`) for the error message, and leaves the file as it was.
package struct HTTPSaveTarget: Sendable {
    /// The file written; created when missing. The caller picks a temporary name and renames it.
    package var path: String
    /// How many bytes the file already holds from an earlier, interrupted download. Above 0, the
    /// request asks for the rest (`Range: bytes=N-`, libcurl's `CURLOPT_RANGE`): a `206` whose
    /// `Content-Range` starts at `resumeFrom` is appended; a `200` (the server ignored the range,
    /// or `If-Range` no longer matched) replaces the file from its first byte.
    package var resumeFrom: Int64
    /// The largest the file may grow (what it held before included), or nil for no limit. A body
    /// announced larger by its `Content-Length` is refused before a byte is written; one without
    /// is stopped when it crosses the limit. Either fails the transfer (`HTTPError.Kind.fileTooLarge`).
    package var maxSize: Int64?
    /// Sees each piece written, with its offset in the file, after it was written. Runs on the
    /// client's transfer thread, so it must be quick (hashing is).
    package var observer: HTTPRequest.BodyObserver?
    /// Called once on the transfer thread when the file is opened for a 2xx response, with the
    /// status and headers (to record the `ETag` an interrupted download resumes against).
    package var onStart: (@Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void)?

    /// A target; nothing resumed unless `resumeFrom` is set.
    package init(
        path: String,
        resumeFrom: Int64 = 0,
        maxSize: Int64? = nil,
        observer: HTTPRequest.BodyObserver? = nil,
        onStart: (@Sendable (_ status: Int, _ headers: HTTPHeaders) -> Void)? = nil
    ) {
        self.path = path
        self.resumeFrom = resumeFrom
        self.maxSize = maxSize
        self.observer = observer
        self.onStart = onStart
    }
}

/// What a response written to a file (`HTTPRequest.saveTo`) put there.
package struct HTTPSavedBody: Sendable, Equatable {
    /// The file written.
    package var path: String
    /// Where this response's bytes start in the file: `resumeFrom` for a resumed `206`, else 0.
    package var offset: Int64
    /// How many bytes this response wrote (after `offset`).
    package var count: Int64

    /// A saved body's description.
    package init(path: String, offset: Int64, count: Int64) {
        self.path = path
        self.offset = offset
        self.count = count
    }

    /// The file's size once written: `offset + count`.
    package var size: Int64 { offset + count }
}
