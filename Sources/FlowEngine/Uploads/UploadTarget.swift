import FlowDSL
import FlowHTTP
import Foundation

/// An upload step with its expressions evaluated: what to send, where, and how.
struct UploadTarget: Sendable {
    /// The absolute URL the upload starts at.
    let url: String
    let file: UploadFile
    let uploadProtocol: UploadProtocol
    /// The method of each content-range chunk.
    let method: String
    let chunkSize: Int64
    /// Sent with every request of the upload.
    let headers: HTTPHeaders
    /// tus `Upload-Metadata` entries, `filename` and `filetype` included.
    let metadata: [(String, String)]
    /// The limit for requests other than chunks (`defaults.http.timeout`).
    let controlTimeout: Duration
    /// Where `upload:` is written, for error messages.
    let location: SourceLocation
    /// TLS files, proxy and cookie jar of every request of the upload (see `TransportPlan`).
    var transport = HTTPTransportOptions()
    /// Whether servers' certificates are checked (`tls.insecure` turns it off).
    var verifyTLS = true

    /// `request` with the step's headers added (those it sets itself win).
    func withStepHeaders(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.transport = transport
        request.verifyTLS = verifyTLS
        for (name, value) in headers where !request.headers.contains(name) {
            request.headers.set(name, value)
        }
        return request
    }

    /// Whether the upload goes to Google Cloud Storage (or an emulator of its resumable uploads),
    /// which reports the stored object's `md5Hash` and `crc32c`: its host is under
    /// `googleapis.com`, or its URL is a resumable upload's (`uploadType=resumable`, `upload_id=`).
    /// Only then are md5 and crc32c computed as the file is sent (see `StreamDigest`).
    var isGoogleCloudStorage: Bool {
        guard let components = URLComponents(string: url) else { return false }
        let host = (components.host ?? "").lowercased()
        if host == "googleapis.com" || host.hasSuffix(".googleapis.com") { return true }
        return (components.queryItems ?? []).contains { item in
            let name = item.name.lowercased()
            return name == "upload_id" || (name == "uploadtype" && item.value?.lowercased() == "resumable")
        }
    }

    /// The `Upload-Metadata` header: `key base64(value)` pairs.
    var metadataHeader: String {
        metadata.map { "\($0.0) \(Data($0.1.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    /// A MIME type for the file name's extension, for tus `filetype`.
    static func mediaType(of path: String) -> String {
        let types = [
            "json": "application/json", "txt": "text/plain", "csv": "text/csv", "html": "text/html",
            "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip",
            "tar": "application/x-tar", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
            "gif": "image/gif", "mp4": "video/mp4", "yaml": "application/yaml", "yml": "application/yaml",
        ]
        let name = (path as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return types[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
