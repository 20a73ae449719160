/// How an `upload:` step sends chunks.
public enum UploadProtocol: String, Sendable, Hashable, CaseIterable {
    /// tus 1.0.0 core with the creation extension: POST then PATCH chunks.
    case tus
    /// One PUT per chunk with `Content-Range: bytes a-b/total`.
    case contentRange = "content-range"
    /// S3's multipart upload: CreateMultipartUpload, UploadPart in parallel, CompleteMultipartUpload.
    case s3
}

/// An `upload:` step: a file sent in chunks, resumable after errors.
public struct UploadStep: Sendable, Hashable {
    /// The default chunk size: 5 MiB.
    public static let defaultChunkSize = 5 * 1024 * 1024

    /// The file to send.
    public let file: ScalarText
    /// Where to send it; relative URLs resolve against `defaults.http.base-url`.
    public let url: ScalarText
    /// The protocol.
    public let uploadProtocol: UploadProtocol
    /// The method of each chunk for `content-range` (default PUT).
    public let method: HTTPMethod?
    /// Bytes per chunk.
    public let chunkSize: Int
    /// Headers sent with every request of the upload.
    public let headers: [NamedValue]
    /// tus `Upload-Metadata` entries (besides `filename` and `filetype`).
    public let metadata: [NamedValue]
    /// `tls`, `auth`, `proxy` and `cookies` of every request of the upload.
    public var transport = HTTPTransportSettings()
    /// The keys of `protocol: s3` (region, parts in flight, storage class…); nil for other protocols.
    public var s3: S3UploadSettings?
    /// What the final response must look like.
    public let expect: Expectation
    /// Where `upload:` is written.
    public let location: SourceLocation

    /// Creates an upload step.
    public init(
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
    public func chunkCount(forFileSize size: Int) -> Int {
        max(1, (size + chunkSize - 1) / chunkSize)
    }
}
