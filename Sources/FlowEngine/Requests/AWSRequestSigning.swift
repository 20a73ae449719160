import Dispatch
import FlowAWS
import FlowDSL
import FlowDigest
import FlowHTTP
import FlowTasks
import Foundation

/// `auth: { aws-sigv4: … }` of a step, resolved: the signer (credentials from the step's keys, the
/// environment or a profile; the region) and how the body is signed. Each attempt is signed anew
/// with the clock of its sending (a signature is good for 15 minutes; retries may wait longer).
struct AWSRequestSigning: Sendable {
    let signer: SigV4Signer
    /// `payload:`: true unsigned, false signed, nil the default (unsigned for a file sent to S3).
    let unsignedPayload: Bool?
    /// Where `aws-sigv4:` is written, for errors.
    let location: SourceLocation

    /// Resolves `auth` for a request; the secret key, the token and the key ID are added to
    /// `masker`, so no output, report or journal shows them, wherever they came from.
    init(
        _ auth: AWSSigV4Auth, environment: [String: String], masker: SecretMasker,
        text: (ScalarText) throws(StepError) -> String
    ) throws(StepError) {
        let service = try text(auth.service)
        let keys = try Self.credentials(auth, environment: environment, masker: masker, text: text)
        let region: String
        if let written = auth.region {
            region = try text(written)
        } else if let fromChain = keys.chain.region(profile: keys.profile, found: keys.found) {
            region = fromChain
        } else {
            throw StepError(
                "aws-sigv4 has no region: give 'region', or set AWS_REGION (or a 'region' in the profile's config)",
                at: auth.location)
        }
        signer = SigV4Signer(credentials: keys.credentials, region: region, service: service)
        unsignedPayload = auth.unsignedPayload
        location = auth.location
    }

    /// The keys `auth` gives (`access-key-id` and `secret-access-key`, usually from `secrets.*`),
    /// else those of the environment or a profile (`found`, with the `profile` named); every one
    /// is added to `masker`, so no output, report or journal shows them, wherever they came from.
    static func credentials(
        _ auth: AWSSigV4Auth, environment: [String: String], masker: SecretMasker,
        text: (ScalarText) throws(StepError) -> String
    ) throws(StepError) -> (
        credentials: AWSCredentials, chain: AWSCredentialChain, profile: String?, found: AWSCredentialChain.Found?
    ) {
        var profile: String?
        if let written = auth.profile { profile = try text(written) }
        let chain = AWSCredentialChain(environment: environment)
        var found: AWSCredentialChain.Found?
        let credentials: AWSCredentials
        if let id = auth.accessKeyID, let secret = auth.secretAccessKey {
            var token: String?
            if let written = auth.sessionToken { token = try text(written) }
            credentials = AWSCredentials(
                accessKeyID: try text(id), secretAccessKey: try text(secret), sessionToken: token)
        } else {
            do throws(AWSCredentialError) {
                found = try chain.credentials(profile: profile)
            } catch {
                throw StepError(error.description, at: auth.location)
            }
            credentials = found!.credentials
        }
        for value in [credentials.secretAccessKey, credentials.sessionToken, credentials.accessKeyID] {
            if let value, !value.isEmpty { masker.add(value) }
        }
        return (credentials, chain, profile, found)
    }

    /// `request` signed at `date` with `payload`: its URL as signed, the signer's headers in place
    /// of any of the same names.
    func sign(_ request: HTTPRequest, payload: SigV4Payload, date: Date) throws(StepError) -> HTTPRequest {
        var signed = request
        let headers = request.headers.map { (name: $0.0, value: $0.1) }
        let signature: SigV4Signature
        do {
            signature = try signer.sign(
                method: request.method, url: request.fullURL, headers: headers, payload: payload, date: date)
        } catch {
            throw StepError(error.description, at: location)
        }
        signed.url = signature.url
        signed.query = []
        for name in SigV4Signer.ownedHeaderNames { signed.headers.remove(name) }
        for header in signature.headers { signed.headers.add(header.name, header.value) }
        // The signature and the token go to the signed URL's origin only, as other credentials do.
        signed.originBoundHeaders += ["Authorization", "X-Amz-Security-Token"]
        return signed
    }

    /// What the signature says of `body`: the hash of a body in memory; for a file, the hash of
    /// its bytes, read on `FileReaderThreads` (file reads stay off the Dispatch pool), unless the
    /// payload is unsigned (the default for S3, which then does not read the file twice).
    func payload(of body: HTTPBody, on queue: DispatchQueue) -> Future<SigV4Payload> {
        let unsigned = unsignedPayload ?? false
        switch body {
        case .empty:
            return Future.succeeded(unsigned ? .unsigned : .empty, on: queue)
        case .bytes(let bytes):
            return Future.succeeded(unsigned ? .unsigned : .bytes(bytes), on: queue)
        case .reused, .multipart:
            if unsignedPayload ?? signer.s3 { return Future.succeeded(.unsigned, on: queue) }
            return Future.failed(
                StepError(
                    "aws-sigv4 cannot sign a multipart body's hash; for S3 write 'payload: unsigned'", at: location),
                on: queue)
        case .file(let path, let offset, let length):
            if unsignedPayload ?? signer.s3 { return Future.succeeded(.unsigned, on: queue) }
            let location = location
            return Self.sha256(path: path, offset: offset, length: length, queue: queue)
                .map(on: queue) { SigV4Payload.sha256($0) }
                .flatMapError(on: queue) { error in
                    let reason = (error as? UploadFileError)?.message ?? "\(error)"
                    throw StepError("cannot read '\(path)' to sign it: \(reason)", at: location)
                }
        }
    }

    /// The hex SHA-256 of `length` bytes of the file at `path` from `offset`, hashed a piece at a
    /// time as `FileRangeReader` reads it into its thread's kept buffer: no memory made a piece,
    /// and no more than one piece of the file held at once.
    static func sha256(path: String, offset: Int64, length: Int64, queue: DispatchQueue) -> Future<String> {
        let hash = LockedBox(SHA256())
        return FileRangeReader.read(path: path, offset: offset, length: length, queue: queue) { _, piece in
            hash.withLock { $0.update(bufferPointer: piece) }
        }.map(on: queue) { _ in hash.withLock { $0.finalize() }.hexString }
    }
}
