/// How an `upload:` step sends chunks.
package enum UploadProtocol: String, Sendable, Hashable, CaseIterable {
    /// tus 1.0.0 core with the creation extension: POST then PATCH chunks.
    case tus
    /// One PUT per chunk with `Content-Range: bytes a-b/total`.
    case contentRange = "content-range"
}

/// An `upload:` step: a file sent in chunks, resumable after errors.
package struct UploadStep: Sendable, Hashable {
    /// The default chunk size: 5 MiB.
    package static let defaultChunkSize = 5 * 1024 * 1024

    /// The file to send.
    package let file: ScalarText
    /// Where to send it; relative URLs resolve against `defaults.http.base-url`.
    package let url: ScalarText
    /// The protocol.
    package let uploadProtocol: UploadProtocol
    /// The method of each chunk for `content-range` (default PUT).
    package let method: HTTPMethod?
    /// Bytes per chunk.
    package let chunkSize: Int
    /// Headers sent with every request of the upload.
    package let headers: [NamedValue]
    /// tus `Upload-Metadata` entries (besides `filename` and `filetype`).
    package let metadata: [NamedValue]
    /// `tls`, `auth`, `proxy` and `cookies` of every request of the upload.
    package var transport = HTTPTransportSettings()
    /// What the final response must look like.
    package let expect: Expectation
    /// Where `upload:` is written.
    package let location: SourceLocation

    /// Creates an upload step.
    package init(
        file: ScalarText,
        url: ScalarText,
        uploadProtocol: UploadProtocol,
        method: HTTPMethod?,
        chunkSize: Int,
        headers: [NamedValue],
        metadata: [NamedValue],
        expect: Expectation,
        location: SourceLocation
    ) {
        self.file = file
        self.url = url
        self.uploadProtocol = uploadProtocol
        self.method = method
        self.chunkSize = chunkSize
        self.headers = headers
        self.metadata = metadata
        self.expect = expect
        self.location = location
    }

    /// How many chunks a file of `size` bytes takes (an empty file still sends one request).
    package func chunkCount(forFileSize size: Int) -> Int {
        max(1, (size + chunkSize - 1) / chunkSize)
    }
}
