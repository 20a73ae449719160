import FlowDSL
import FlowHTTP
import Foundation

/// Signs an S3 request (SigV4) given the SHA-256 (hex) of its body; nil when requests go unsigned.
typealias S3RequestSigner = @Sendable (_ request: inout HTTPRequest, _ payloadSHA256: String) throws -> Void

/// An `upload` step with `protocol: s3`, evaluated: the object's URL and file (in `base`), the
/// part plan and the S3 settings.
struct S3UploadTarget: Sendable {
    /// The URL, file, headers, transport and time limits, as for every upload.
    let base: UploadTarget
    /// The signing region.
    let region: String
    let partSize: Int64
    let partCount: Int
    let partsInFlight: Int
    let storageClass: String?
    let contentType: String
    let checksum: S3UploadSettings.Checksum
    /// `metadata`: sent as `x-amz-meta-NAME` headers when the upload is created.
    let metadata: [(String, String)]
    /// Signs each request; nil: unsigned (a server without authentication).
    let signer: S3RequestSigner?

    /// The byte range of part `number` (from 1).
    func range(of number: Int) -> (offset: Int64, length: Int64) {
        let offset = Int64(number - 1) * partSize
        return (offset, min(partSize, base.file.size - offset))
    }

    /// The signing region: `given`, else the `REGION` of an AWS host (`s3.REGION.amazonaws.com`,
    /// `BUCKET.s3.REGION.amazonaws.com`, `s3-REGION.amazonaws.com`), else `AWS_REGION`, else
    /// `AWS_DEFAULT_REGION`, else `us-east-1`.
    static func region(given: String?, url: String, environment: [String: String]) -> String {
        if let given, !given.isEmpty { return given }
        let host = (URLComponents(string: url)?.host ?? "").lowercased()
        if host.hasSuffix(".amazonaws.com") {
            let labels = host.split(separator: ".").map(String.init)
            if let s3 = labels.firstIndex(where: { $0 == "s3" || $0.hasPrefix("s3-") }) {
                if labels[s3].hasPrefix("s3-"), labels[s3] != "s3-accelerate" { return String(labels[s3].dropFirst(3)) }
                if s3 + 1 < labels.count - 2 { return labels[s3 + 1] }
            }
        }
        for name in ["AWS_REGION", "AWS_DEFAULT_REGION"] {
            if let value = environment[name], !value.isEmpty { return value }
        }
        return "us-east-1"
    }
}
