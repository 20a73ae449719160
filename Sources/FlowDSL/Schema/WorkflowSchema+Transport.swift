extension WorkflowSchema {
    /// `tls`, `auth` and `proxy`, shared by `http`, `upload` and `defaults.http`.
    static var transportDefinitions: [JSONNode.Member] {
        typealias V = SchemaVocabulary
        let tls = V.closedObject(
            "TLS certificates. Paths are relative to the workflow file's folder; a step's keys override "
                + "`defaults.http.tls` one by one.",
            properties: [
                "ca-file": V.text(
                    "A PEM file of the CA certificates to trust instead of the system's (default: "
                        + "`CURL_CA_BUNDLE`, else `SSL_CERT_FILE`, else the system's)."),
                "cert-file": V.text("A PEM client certificate, for servers that ask for one."),
                "key-file": V.text("The client certificate's private key (PEM), when not in `cert-file`."),
                "insecure": V.boolean(
                    "Skip checking the server's certificate and host name (default false); every run warns."),
            ])
        let basic = V.closedObject(
            "Basic auth.",
            properties: [
                "basic": V.closedObject(
                    "`Authorization: Basic base64(user:password)`.",
                    properties: [
                        "user": V.text("The user name (no `:`)."),
                        "password": V.text("The password; usually `${{ secrets.NAME }}`."),
                    ],
                    required: ["user", "password"])
            ],
            required: ["basic"])
        let bearer = V.closedObject(
            "Bearer token.",
            properties: ["bearer": V.text("`Authorization: Bearer TOKEN`; usually `${{ secrets.NAME }}`.")],
            required: ["bearer"])
        let auth = V.either(
            "The `Authorization` header: exactly one of `basic`, `bearer` and `aws-sigv4`.",
            [basic, bearer, awsSigV4(serviceRequired: true)])
        // An upload's: `aws-sigv4` signs an S3 upload only, whose service is `s3` when not given.
        let uploadAuth = V.either(
            "The `Authorization` header of a tus or Content-Range upload (`basic` or `bearer`), or the "
                + "AWS Signature Version 4 keys of an S3 upload (`aws-sigv4`, its `service` `s3` when not given).",
            [basic, bearer, awsSigV4(serviceRequired: false)])
        let proxy = V.text(
            "A proxy URL such as `http://proxy:3128`, or `none` for no proxy; without it libcurl reads "
                + "`http_proxy`, `https_proxy`/`HTTPS_PROXY`, `NO_PROXY` (never upper-case `HTTP_PROXY`).")
        return [
            .init(key: "tls", value: tls), .init(key: "auth", value: auth),
            .init(key: "upload-auth", value: uploadAuth),
            .init(key: "proxy", value: proxy),
        ]
    }

    /// `auth: { aws-sigv4: … }`; an S3 upload's needs no `service`.
    private static func awsSigV4(serviceRequired: Bool) -> JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "AWS Signature Version 4.",
            properties: [
                "aws-sigv4": V.closedObject(
                    "Sign each request with AWS Signature Version 4; keys not given come from "
                        + "`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`, else a profile "
                        + "of `~/.aws/credentials` (`AWS_PROFILE`).",
                    properties: [
                        "service": V.text("The signing name of the service: `s3`, `sts`, `execute-api`, …"),
                        "region": V.text(
                            "The region (default `AWS_REGION`, `AWS_DEFAULT_REGION`, then the profile's)."),
                        "access-key-id": V.text("The access key ID; usually `${{ secrets.NAME }}`."),
                        "secret-access-key": V.text("The secret access key; usually `${{ secrets.NAME }}`."),
                        "session-token": V.text("The session token of a temporary key."),
                        "profile": V.text(
                            "A profile of `~/.aws/credentials` and `~/.aws/config` instead of the environment."),
                        "payload": V.text(
                            "`signed` (the body's SHA-256) or `unsigned` (`UNSIGNED-PAYLOAD`, S3 only; the "
                                + "default for a `body-file` sent to S3)."),
                    ],
                    required: serviceRequired ? ["service"] : [])
            ],
            required: ["aws-sigv4"])
    }
}
