import FlowAWS
import FlowHTTP
import Foundation

/// Signs S3 upload requests with `SigV4Signer` (FlowAWS), for the service `s3`.
enum S3Signing {
    /// The AWS credentials found as AWS's tools find them (`AWSCredentialChain`: the environment's
    /// keys, else the `AWS_PROFILE` or `default` profile of `~/.aws`); nil when none is set
    /// anywhere, and the upload goes unsigned.
    static func credentials(_ environment: [String: String]) throws(StepErrorText) -> AWSCredentials? {
        do throws(AWSCredentialError) {
            return try AWSCredentialChain(environment: environment).credentialsIfAny(profile: nil)?.credentials
        } catch {
            throw StepErrorText(error.description)
        }
    }

    /// A signer of S3 requests for `region` with `credentials`: each request's URL, query and
    /// headers are signed with the given payload SHA-256, at the time it is signed.
    static func signer(credentials: AWSCredentials, region: String) -> S3RequestSigner {
        let signer = SigV4Signer(credentials: credentials, region: region, service: "s3")
        return { request, payloadSHA256 in
            let signature = try signer.sign(
                method: request.method, url: request.fullURL, headers: Array(request.headers),
                payload: .sha256(payloadSHA256), date: Date())
            request.url = signature.url
            request.query = []
            for (name, value) in signature.headers { request.headers.set(name, value) }
        }
    }
}

/// A message for a step error whose place the caller knows.
struct StepErrorText: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
