import FlowDigest
import Foundation

/// An access key: what signs a request. `sessionToken` comes with temporary keys (STS).
package struct AWSCredentials: Sendable, Equatable {
    /// `AKIA…` (a user's key) or `ASIA…` (a temporary key).
    package var accessKeyID: String
    /// The secret that signs; never sent, never printed.
    package var secretAccessKey: String
    /// The session token of a temporary key, sent as `X-Amz-Security-Token`.
    package var sessionToken: String?

    /// Credentials from their parts.
    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// What a signature says of the request body (the `x-amz-content-sha256` of S3).
package enum SigV4Payload: Sendable, Equatable {
    /// A body in memory (empty for none): its SHA-256 is signed.
    case bytes([UInt8])
    /// The lowercase hex SHA-256 of a body computed elsewhere (a part streamed from a file, hashed
    /// while it was read for its checksum).
    case sha256(String)
    /// `UNSIGNED-PAYLOAD`: the body is not part of the signature (S3 only; TLS protects it in
    /// transit, and a part checksum can protect it end to end).
    case unsigned

    /// No body.
    package static let empty = SigV4Payload.bytes([])

    /// The value signed as the payload's hash.
    package var hash: String {
        switch self {
        case .bytes(let bytes): SHA256.hash(data: bytes).hexString
        case .sha256(let hex): hex.lowercased()
        case .unsigned: "UNSIGNED-PAYLOAD"
        }
    }
}

/// A URL the signer cannot sign.
package struct SigV4Error: Error, Equatable, CustomStringConvertible {
    /// Why.
    package let description: String
}

/// A signed request: what to send, and the intermediate texts of the signature (which AWS's test
/// suite and botocore check, and which help when a server answers `SignatureDoesNotMatch`).
package struct SigV4Signature: Sendable {
    /// The URL to send: the one given, with its path and query encoded as they were signed.
    package let url: String
    /// Headers to add to the request, replacing any of the same names (see
    /// `SigV4Signer.ownedHeaderNames`): `X-Amz-Date`, `X-Amz-Security-Token` with temporary
    /// credentials, `X-Amz-Content-SHA256` for S3, and `Authorization` last.
    package let headers: [(name: String, value: String)]
    /// The canonical request (step 1 of the signature).
    package let canonicalRequest: String
    /// The string to sign (step 2).
    package let stringToSign: String
    /// The signature, lowercase hex.
    package let signature: String
    /// The `Authorization` header's value.
    package let authorization: String
}

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) in the `Authorization` header, for any service:
/// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html. Pure: the clock is an
/// argument, so a test signs as AWS's test suite and botocore do for the same instant.
package struct SigV4Signer: Sendable {
    /// The access key that signs.
    package let credentials: AWSCredentials
    /// The region of the credential scope (`us-east-1`).
    package let region: String
    /// The service of the credential scope (`s3`, `sts`, `execute-api`, …).
    package let service: String
    /// S3's rules: the path is not normalized and encoded once, and `x-amz-content-sha256` is
    /// sent and signed. True for the service `s3`.
    package let s3: Bool

    /// Headers the signer sets itself: a request's own values of these are replaced.
    package static let ownedHeaderNames: Set<String> = [
        "authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256",
    ]

    /// Headers never signed, as botocore leaves them out: proxies and libcurl may change or drop
    /// them on the way.
    static let unsignedHeaderNames: Set<String> = [
        "expect", "transfer-encoding", "user-agent", "x-amzn-trace-id", "authorization", "connection",
    ]

    /// A signer for `service` in `region` with `credentials`.
    package init(credentials: AWSCredentials, region: String, service: String) {
        self.credentials = credentials
        self.region = region
        self.service = service
        s3 = service == "s3"
    }

    /// Signs a request: `url` is absolute (`http` or `https`); `headers` are the request's own
    /// (a `Host` among them wins over the URL's); `date` is the signing instant.
    package func sign(
        method: String, url: String, headers: [(name: String, value: String)], payload: SigV4Payload, date: Date
    ) throws(SigV4Error) -> SigV4Signature {
        guard let parts = SigV4URL(url) else {
            throw SigV4Error(description: "cannot sign '\(url)': SigV4 signs absolute http:// or https:// URLs")
        }
        let stamp = Self.timestamp(date)
        let day = String(stamp.prefix(8))
        var added: [(name: String, value: String)] = [("X-Amz-Date", stamp)]
        if let token = credentials.sessionToken { added.append(("X-Amz-Security-Token", token)) }
        if s3 { added.append(("X-Amz-Content-SHA256", payload.hash)) }

        // Canonical headers: lower-case names in byte order; the values of a repeated name joined
        // by `,` in their order; each value trimmed and its runs of white space made one space.
        var values: [String: [String]] = [:]
        let own = headers.filter { !Self.ownedHeaderNames.contains($0.name.lowercased()) }
        for header in own + added {
            let name = header.name.lowercased()
            guard !Self.unsignedHeaderNames.contains(name) else { continue }
            values[name, default: []].append(Self.canonicalValue(header.value))
        }
        if values["host"] == nil { values["host"] = [parts.host] }
        let names = values.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let signedHeaders = names.joined(separator: ";")
        let canonicalHeaders = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()

        let canonicalRequest = [
            method.uppercased(), parts.canonicalPath(s3: s3), parts.canonicalQuery, canonicalHeaders, signedHeaders,
            payload.hash,
        ].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = [
            "AWS4-HMAC-SHA256", stamp, scope, SHA256.hash(data: Array(canonicalRequest.utf8)).hexString,
        ].joined(separator: "\n")
        let signature = HMACSHA256.authenticationCode(key: signingKey(day: day), message: Array(stringToSign.utf8))
            .hexString
        let authorization =
            "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), "
            + "Signature=\(signature)"
        let sentURL = parts.origin + parts.sentPath(s3: s3) + (parts.sentQuery.map { "?" + $0 } ?? "")
        return SigV4Signature(
            url: sentURL, headers: added + [("Authorization", authorization)], canonicalRequest: canonicalRequest,
            stringToSign: stringToSign, signature: signature, authorization: authorization)
    }

    /// The key of a day: HMAC chained over the date, region, service and `aws4_request`.
    func signingKey(day: String) -> [UInt8] {
        var key = Array("AWS4\(credentials.secretAccessKey)".utf8)
        for part in [day, region, service, "aws4_request"] {
            key = HMACSHA256.authenticationCode(key: key, message: Array(part.utf8)).bytes
        }
        return key
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    }

    /// A header value as signed: trimmed, each run of spaces, tabs and line breaks one space.
    static func canonicalValue(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" })
            .joined(separator: " ")
    }
}
