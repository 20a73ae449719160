import FlowAWS
import FlowHTTP
import Foundation

/// Signs S3 upload requests with `SigV4Signer` (FlowAWS), for the service `s3`.
enum S3Signing {
    /// The AWS credentials of the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
    /// `AWS_SESSION_TOKEN`); nil when neither key is set. Only one of the two set is an error.
    static func environmentCredentials(_ environment: [String: String]) throws(StepErrorText) -> AWSCredentials? {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        switch (value("AWS_ACCESS_KEY_ID"), value("AWS_SECRET_ACCESS_KEY")) {
        case (nil, nil): return nil
        case (let id?, let secret?):
            return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        case (nil, _):
            throw StepErrorText(
                "the environment has AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID; set both or neither")
        case (_, nil):
            throw StepErrorText(
                "the environment has AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY; set both or neither")
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
