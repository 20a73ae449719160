/// Whose requests an `auth` mapping signs, which decides the schemes it takes: an `upload` with
/// `protocol: s3` is signed with AWS Signature Version 4 only (with `service: s3` implied), and a
/// tus or Content-Range upload cannot be signed at all.
enum AuthSigning: Equatable {
    /// An `http` step's, or `defaults.http`'s (every scheme).
    case requests
    /// An `upload` with `protocol: s3`: `aws-sigv4` only.
    case s3Upload
    /// A tus or Content-Range `upload`: `basic` or `bearer`.
    case otherUpload

    /// Why `scheme` (`basic`, `bearer`, `aws-sigv4`) does not go here, or nil.
    func problem(withScheme scheme: String) -> (message: String, hint: String)? {
        switch self {
        case .requests:
            return nil
        case .s3Upload where scheme != "aws-sigv4":
            return (
                "an S3 upload is signed with AWS Signature Version 4: its 'auth' takes 'aws-sigv4', not '\(scheme)'",
                "write 'auth: { aws-sigv4: { access-key-id: ${{ secrets.KEY }}, "
                    + "secret-access-key: ${{ secrets.SECRET }} } }'"
            )
        case .otherUpload where scheme == "aws-sigv4":
            return (
                "'aws-sigv4' signs the requests of an 'http' step or of an upload with 'protocol: s3', "
                    + "not a tus or Content-Range upload",
                "use 'basic' or 'bearer', or 'protocol: s3' for an S3 multipart upload"
            )
        default:
            return nil
        }
    }
}

extension StepParser {
    /// The `aws-sigv4` keys an S3 upload cannot take: a `service` other than `s3`, and `payload`
    /// (each part's SHA-256 is always signed).
    mutating func checkS3UploadSigning(_ field: NodeReader.Fields) {
        if let service = field["service"], case .scalar(let scalar) = service.value, scalar.string != "s3",
            !scalar.string.contains("${{")
        {
            reader.error(
                "an S3 upload is signed for the service 's3', not '\(Echo.text(scalar.string))'", at: service.value,
                hint: "leave 'service' out: it is 's3'")
        }
        if let payload = field["payload"] {
            reader.error(
                "an S3 upload signs each part's SHA-256: 'payload' is for 'http' steps", at: payload.keyNode,
                hint: "remove 'payload'")
        }
    }

    /// The signing region given both as the upload's `region` and in its `auth: { aws-sigv4 }`.
    mutating func checkS3UploadRegion(_ field: NodeReader.Fields, transport: HTTPTransportSettings) {
        guard case .awsSigV4(let aws)? = transport.auth, aws.region != nil, let region = field["region"] else { return }
        reader.error(
            "the S3 upload's region is given twice: 'region' here and in 'auth: { aws-sigv4 }'", at: region.keyNode,
            hint: "keep one of them")
    }
}
