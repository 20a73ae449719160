extension StepParser {
    /// The keys of `HTTPTransportSettings`, allowed in `http`, `upload` and `defaults.http`.
    static let transportKeys = ["tls", "auth", "proxy", "cookies"]

    /// `tls`, `auth`, `proxy` and `cookies` among `fields` (other keys are the caller's); `auth`
    /// as the requests of `signs` take it.
    mutating func parseTransport(_ fields: NodeReader.Fields, signs: AuthSigning = .requests) -> HTTPTransportSettings {
        HTTPTransportSettings(
            tls: fields["tls"].flatMap { parseTLS($0) },
            auth: fields["auth"].flatMap { parseAuth($0.value, signs: signs) },
            proxy: fields["proxy"].flatMap { parseProxy($0.value) },
            cookies: fields["cookies"].flatMap { parseCookies($0.value) })
    }

    /// A request's `cookies`: `true` or `false`. The jar's files are the run's, so a mapping here
    /// (`defaults.http` reads its own first) says where they belong.
    private mutating func parseCookies(_ node: Node) -> Bool? {
        if case .mapping = node {
            reader.error(
                "a step's 'cookies' is true or false: the cookie jar's files belong to the whole run", at: node,
                hint: "write 'cookies: { load: FILE, save: FILE }' under defaults.http")
            return nil
        }
        return reader.bool(node, "'cookies'")
    }

    private mutating func parseTLS(_ entry: NodeReader.Entry) -> TLSSettings? {
        guard let entries = reader.mapping(entry.value, "'tls'") else { return nil }
        reader.rejectUnknownKeys(entries, allowed: ["ca-file", "cert-file", "key-file", "insecure"], in: "'tls'")
        let field = NodeReader.Fields(entries)
        if let key = field["key-file"], field["cert-file"] == nil {
            reader.error(
                "'tls' has a 'key-file' but no 'cert-file'", at: key.keyNode,
                hint: "the key belongs to a client certificate: add 'cert-file'")
        }
        return TLSSettings(
            caFile: field["ca-file"].flatMap { reader.text($0.value, "'ca-file'") },
            certFile: field["cert-file"].flatMap { reader.text($0.value, "'cert-file'") },
            keyFile: field["key-file"].flatMap { reader.text($0.value, "'key-file'") },
            insecure: field["insecure"].flatMap { reader.bool($0.value, "'insecure'") },
            location: reader.location(entry.keyNode))
    }

    private mutating func parseAuth(_ node: Node, signs: AuthSigning) -> HTTPAuth? {
        guard let entries = reader.mapping(node, "'auth'") else { return nil }
        reader.rejectUnknownKeys(entries, allowed: ["basic", "bearer", "aws-sigv4"], in: "'auth'")
        guard entries.count == 1, let entry = entries.first else {
            reader.error(
                "'auth' takes exactly one of 'basic', 'bearer' and 'aws-sigv4'", at: node,
                hint: "write 'auth: { basic: { user: U, password: P } }', 'auth: { bearer: TOKEN }' "
                    + "or 'auth: { aws-sigv4: { service: s3 } }'")
            return nil
        }
        if let problem = signs.problem(withScheme: entry.key) {
            reader.error(problem.message, at: entry.keyNode, hint: problem.hint)
            return nil
        }
        switch entry.key {
        case "aws-sigv4":
            return parseAWSSigV4(entry, signs: signs)
        case "bearer":
            return reader.text(entry.value, "'bearer'").map(HTTPAuth.bearer)
        case "basic":
            guard let fields = reader.mapping(entry.value, "'basic'") else { return nil }
            reader.rejectUnknownKeys(fields, allowed: ["user", "password"], in: "'basic'")
            let field = NodeReader.Fields(fields)
            guard let userField = field["user"], let passwordField = field["password"] else {
                reader.error("'basic' needs both 'user' and 'password'", at: entry.keyNode)
                return nil
            }
            guard let user = reader.text(userField.value, "'user'"),
                let password = reader.text(passwordField.value, "'password'")
            else { return nil }
            if user.text.contains(":") {
                reader.error(
                    "a Basic auth 'user' cannot contain ':' (it separates the user from the password)",
                    at: userField.value)
            }
            return .basic(user: user, password: password)
        default:
            return nil
        }
    }

    private mutating func parseAWSSigV4(_ entry: NodeReader.Entry, signs: AuthSigning) -> HTTPAuth? {
        guard let fields = reader.mapping(entry.value, "'aws-sigv4'") else { return nil }
        reader.rejectUnknownKeys(
            fields,
            allowed: [
                "service", "region", "access-key-id", "secret-access-key", "session-token", "profile", "payload",
            ], in: "'aws-sigv4'")
        let field = NodeReader.Fields(fields)
        if signs == .s3Upload { checkS3UploadSigning(field) }
        let service: ScalarText?
        if let serviceField = field["service"] {
            service = reader.text(serviceField.value, "'service'")
        } else if signs == .s3Upload {
            // An S3 upload is signed for S3: `service` may be left out.
            service = ScalarText(text: "s3", location: reader.location(entry.keyNode), textStart: nil)
        } else {
            reader.error(
                "'aws-sigv4' needs a 'service'", at: entry.keyNode,
                hint: "the service's signing name, such as 's3', 'sts' or 'execute-api'")
            return nil
        }
        if (field["access-key-id"] == nil) != (field["secret-access-key"] == nil) {
            reader.error(
                "'aws-sigv4' takes 'access-key-id' and 'secret-access-key' together", at: entry.keyNode,
                hint: "give both (usually from secrets.*), or neither to read AWS_ACCESS_KEY_ID or a profile")
        }
        if field["profile"] != nil, field["access-key-id"] != nil {
            reader.error("'aws-sigv4' takes a 'profile' or an 'access-key-id', not both", at: entry.keyNode)
        }
        if let token = field["session-token"], field["access-key-id"] == nil {
            reader.error(
                "'session-token' goes with 'access-key-id' and 'secret-access-key'", at: token.keyNode,
                hint: "without them the token comes with the key: AWS_SESSION_TOKEN or the profile's")
        }
        var unsigned: Bool?
        if let payload = field["payload"], let text = reader.text(payload.value, "'payload'") {
            switch text.text {
            case "signed": unsigned = false
            case "unsigned": unsigned = true
            default:
                reader.error(
                    "'payload' is 'signed' or 'unsigned', not '\(text.text)'", at: payload.value,
                    hint: "'unsigned' sends x-amz-content-sha256: UNSIGNED-PAYLOAD (S3 only)")
            }
        }
        guard let service else { return nil }
        return .awsSigV4(
            AWSSigV4Auth(
                service: service, region: field["region"].flatMap { reader.text($0.value, "'region'") },
                accessKeyID: field["access-key-id"].flatMap { reader.text($0.value, "'access-key-id'") },
                secretAccessKey: field["secret-access-key"].flatMap { reader.text($0.value, "'secret-access-key'") },
                sessionToken: field["session-token"].flatMap { reader.text($0.value, "'session-token'") },
                profile: field["profile"].flatMap { reader.text($0.value, "'profile'") }, unsignedPayload: unsigned,
                location: reader.location(entry.keyNode)))
    }

    private mutating func parseProxy(_ node: Node) -> ProxySetting? {
        guard let text = reader.text(node, "'proxy'") else { return nil }
        return text.text == "none" ? .direct : .url(text)
    }
}
