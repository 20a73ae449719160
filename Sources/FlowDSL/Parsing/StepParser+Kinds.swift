extension StepParser {
    static let httpKeys =
        [
            "method", "url", "query", "headers", "json", "form", "body", "body-file", "multipart", "timeout",
            "follow-redirects", "allow-insecure-redirect", "keep-credentials-on-redirect", "compressed", "delay",
            "expect", "http-version",
        ] + transportKeys
    /// Everything an `http` mapping may hold, joined once rather than per request.
    static let allHTTPKeys = httpKeys + responseBodyKeys
    static let allHTTPKeySet = NodeReader.KeySet(allHTTPKeys)
    static let bodyKeys = ["json", "form", "body", "body-file", "multipart"]
    static let uploadKeys =
        ["file", "url", "protocol", "method", "chunk-size", "headers", "metadata", "expect"] + transportKeys
        + s3UploadKeys

    mutating func parseHTTP(_ kindEntry: NodeReader.Entry, stepExpect: NodeReader.Entry?, id: String) -> HTTPStep? {
        guard let entries = reader.mapping(kindEntry.value, "'http'") else { return nil }
        reader.rejectUnknownKeys(entries, allowed: Self.allHTTPKeys, known: Self.allHTTPKeySet, in: "'http'")
        let field = NodeReader.Fields(entries)
        let bodies = entries.filter { Self.bodyKeys.contains($0.key) }
        if bodies.count > 1 {
            reader.error(
                "a request has at most one body, but this one has \(bodies.map { "'\($0.key)'" }.joined(separator: " and "))",
                at: bodies[1].keyNode
            )
        }
        var body: HTTPStep.Body?
        var bodyRange: HTTPStep.FileRange?
        if let first = bodies.first {
            switch first.key {
            case "json": body = .json(reader.valueTemplate(first.value))
            case "form": body = .form(reader.repeatableNamedValues(first.value, "'form'"))
            case "body": body = parseBody(first.value)
            case "multipart": body = .multipart(parseMultipart(first.value))
            default:
                if case .mapping = first.value {
                    (body, bodyRange) = parseBodyFileRange(first)
                } else {
                    body = reader.text(first.value, "'body-file'").map(HTTPStep.Body.file)
                }
            }
        }
        let method = field["method"].flatMap { parseMethod($0.value) } ?? .get
        let query = field["query"].map { parseQuery($0.value) } ?? []
        let headers = field["headers"].map { reader.repeatableNamedValues($0.value, "'headers'") } ?? []
        var timeout: Duration?
        if let entry = field["timeout"],
            !reader.deferred(entry.value, "'timeout'", as: .duration, to: .httpTimeout(step: id))
        {
            timeout = reader.duration(entry.value, "'timeout'")
        }
        let followRedirects = field["follow-redirects"].flatMap { reader.bool($0.value, "'follow-redirects'") }
        let expect = parseExpect(inner: field["expect"], step: stepExpect)
        guard let urlField = field["url"] else {
            reader.error("'http' has no 'url'", at: kindEntry.keyNode, hint: "add 'url: /path' or a full URL")
            return nil
        }
        let transport = parseTransport(field)
        guard let url = reader.text(urlField.value, "'url'") else { return nil }
        var step = HTTPStep(
            method: method,
            url: url,
            query: query,
            headers: headers,
            body: body,
            timeout: timeout,
            followRedirects: followRedirects,
            expect: expect,
            location: reader.location(kindEntry.keyNode)
        )
        step.transport = transport
        step.responseBody = parseResponseBody(field, method: method)
        step.allowInsecureRedirect =
            field["allow-insecure-redirect"].flatMap { reader.bool($0.value, "'allow-insecure-redirect'") } ?? false
        step.keepCredentialsOnRedirect =
            field["keep-credentials-on-redirect"].flatMap { reader.bool($0.value, "'keep-credentials-on-redirect'") }
            ?? false
        step.delay = field["delay"].flatMap { reader.duration($0.value, "'delay'") }
        step.compressed = field["compressed"].flatMap { reader.bool($0.value, "'compressed'") }
        step.version = parseHTTPVersion(field)
        step.bodyRange = bodyRange
        return step
    }

    /// `body-file: { path, offset, length }`: a byte range of a file as the body.
    private mutating func parseBodyFileRange(_ entry: NodeReader.Entry) -> (HTTPStep.Body?, HTTPStep.FileRange?) {
        guard let fields = reader.mapping(entry.value, "'body-file'") else { return (nil, nil) }
        reader.rejectUnknownKeys(fields, allowed: ["path", "offset", "length"], in: "'body-file'")
        let field = NodeReader.Fields(fields)
        guard let pathField = field["path"] else {
            reader.error(
                "'body-file' has no 'path'", at: entry.keyNode,
                hint: "write 'body-file: { path: FILE, offset: BYTES, length: BYTES }'")
            return (nil, nil)
        }
        let range = HTTPStep.FileRange(
            offset: field["offset"].flatMap { reader.text($0.value, "'offset'") },
            length: field["length"].flatMap { reader.text($0.value, "'length'") },
            location: reader.location(entry.keyNode))
        return (reader.text(pathField.value, "'path'").map(HTTPStep.Body.file), range)
    }

    mutating func parseUpload(_ kindEntry: NodeReader.Entry, stepExpect: NodeReader.Entry?, id: String) -> UploadStep? {
        guard let entries = reader.mapping(kindEntry.value, "'upload'") else { return nil }
        reader.rejectUnknownKeys(entries, allowed: Self.uploadKeys, in: "'upload'")
        let field = NodeReader.Fields(entries)
        var missing: [String] = []
        for key in ["file", "url", "protocol"] where field[key] == nil { missing.append("'\(key)'") }
        if !missing.isEmpty {
            reader.error(
                "'upload' has no \(missing.joined(separator: ", "))",
                at: kindEntry.keyNode,
                hint: "an upload needs 'file', 'url' and 'protocol' (tus, content-range or s3)"
            )
        }
        let file = field["file"].flatMap { reader.text($0.value, "'file'") }
        let url = field["url"].flatMap { reader.text($0.value, "'url'") }
        let uploadProtocol = field["protocol"].flatMap {
            reader.choice($0.value, "upload protocol", as: UploadProtocol.self)
        }
        let method = field["method"].flatMap { parseMethod($0.value) }
        var chunkSize: Int? = UploadStep.defaultChunkSize
        if let entry = field["chunk-size"],
            !reader.deferred(entry.value, "'chunk-size'", as: .size, to: .chunkSize(step: id))
        {
            chunkSize = reader.size(entry.value, "'chunk-size'")
        }
        let headers = field["headers"].map { reader.namedValues($0.value, "'headers'") } ?? []
        let metadata = field["metadata"].map { reader.namedValues($0.value, "'metadata'") } ?? []
        let expect = parseExpect(inner: field["expect"], step: stepExpect)
        let signs: AuthSigning =
            switch uploadProtocol {
            case .s3?: .s3Upload
            case nil: .requests
            default: .otherUpload
            }
        let transport = parseTransport(field, signs: signs)
        if signs == .s3Upload { checkS3UploadRegion(field, transport: transport) }
        guard let file, let url, let uploadProtocol, let chunkSize else { return nil }
        var step = UploadStep(
            file: file,
            url: url,
            uploadProtocol: uploadProtocol,
            method: method,
            chunkSize: chunkSize,
            headers: headers,
            metadata: metadata,
            expect: expect,
            location: reader.location(kindEntry.keyNode)
        )
        step.transport = transport
        step.s3 = parseS3Upload(field, uploadProtocol: uploadProtocol, chunkSizeGiven: field["chunk-size"] != nil)
        return step
    }

    mutating func parseRun(_ kindEntry: NodeReader.Entry, fields: NodeReader.Fields) -> RunStep? {
        let command: RunStep.Command
        switch kindEntry.value {
        case .sequence(let sequence):
            let arguments = sequence.compactMap { reader.text($0, "an argument of 'run'") }
            guard !arguments.isEmpty else {
                reader.error("'run' has an empty argument list", at: kindEntry.keyNode)
                return nil
            }
            command = .arguments(arguments)
        case .scalar:
            guard let script = reader.text(kindEntry.value, "'run'") else { return nil }
            guard !script.text.trimmingSpaces.isEmpty else {
                reader.error("'run' has an empty script", at: kindEntry.keyNode)
                return nil
            }
            command = .script(script)
        default:
            reader.typeError(
                "'run'",
                expected: "a script (text) or an argument list",
                at: kindEntry.value,
                hint: "put 'env' and 'cwd' next to 'run', not under it"
            )
            return nil
        }
        return RunStep(
            command: command,
            env: fields["env"].map { reader.namedValues($0.value, "'env'") } ?? [],
            cwd: fields["cwd"].flatMap { reader.text($0.value, "'cwd'") },
            location: reader.location(kindEntry.keyNode)
        )
    }

    /// One of the seven common methods in any letter case (sent upper case), or any other RFC 9110
    /// method token written in capitals and sent as written (`PROPFIND`, `PURGE`, `LOCK`). A
    /// lower-case word that is none of the seven is taken for a typo.
    mutating func parseMethod(_ node: Node) -> HTTPMethod? {
        guard case .scalar(let scalar) = node else {
            reader.typeError("'method'", expected: "an HTTP method", at: node)
            return nil
        }
        let written = scalar.string
        if let method = HTTPMethod.allCases.first(where: { $0.rawValue == written.uppercased() }) { return method }
        let names = HTTPMethod.allCases.map(\.rawValue)
        let closest = Suggestion.closest(to: written.uppercased(), in: names)
        guard let method = HTTPMethod(rawValue: written) else {
            reader.error(
                "'\(Echo.text(written))' is not an HTTP method: a method is a token of letters, digits and "
                    + "!#$%&'*+-.^_`|~ with no space", at: node,
                hint: closest.map { "did you mean '\($0)'?" } ?? "write a method such as GET, POST or PROPFIND")
            return nil
        }
        if written.utf8.contains(where: { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) {
            reader.error(
                "unknown HTTP method '\(Echo.text(written))'", at: node,
                hint: closest.map { "did you mean '\($0)'?" }
                    ?? "use one of \(names.joined(separator: ", ")), or write another method in capitals "
                    + "as the server expects it (PROPFIND, PURGE)")
            return nil
        }
        if let closest {
            reader.warning(
                "'\(Echo.text(written))' is not one of the common HTTP methods; it is sent as written", at: node,
                hint: "did you mean '\(closest)'?")
        }
        return method
    }

    /// `expect` either inside `http:`/`upload:` or next to it, not both.
    mutating func parseExpect(inner: NodeReader.Entry?, step: NodeReader.Entry?) -> Expectation {
        if inner != nil, let step {
            reader.error("'expect' is given twice, inside and next to the request", at: step.keyNode)
        }
        guard let entry = inner ?? step, let fields = reader.mapping(entry.value, "'expect'") else {
            return Expectation()
        }
        reader.rejectUnknownKeys(fields, allowed: ["status", "assert", "headers"], in: "'expect'")
        var status = StatusPattern.success
        var assertions: [ScalarText] = []
        var headers: [NamedValue] = []
        for field in fields {
            switch field.key {
            case "status": status = parseStatus(field.value) ?? status
            case "assert": assertions = reader.items(field.value).compactMap { reader.text($0, "an assertion") }
            case "headers": headers = reader.namedValues(field.value, "'expect.headers'")
            default: break
            }
        }
        return Expectation(
            status: status, assertions: assertions, headers: headers, location: reader.location(entry.keyNode))
    }

    /// A code, a class like `2xx`, or a list of them.
    mutating func parseStatus(_ node: Node) -> StatusPattern? {
        var alternatives: [StatusPattern.Alternative] = []
        var valid = true
        for item in reader.items(node) {
            guard case .scalar(let scalar) = item, let alternative = StatusPattern.alternative(scalar.string) else {
                reader.error(
                    "'\(Echo.text(item.scalar?.string ?? reader.describe(item)))' is not a status pattern",
                    at: item,
                    hint: "write a code (200), a class (2xx), or a list of them"
                )
                valid = false
                continue
            }
            alternatives.append(alternative)
        }
        guard valid, !alternatives.isEmpty else { return nil }
        return StatusPattern(alternatives)
    }

    mutating func parseRetry(_ node: Node, at keyNode: Node, step: String?) -> Retry? {
        let location = reader.location(keyNode)
        if case .scalar = node {
            if reader.deferred(node, "'retry'", as: .wholeNumber(atLeast: 1), to: .retryAttempts(step: step)) {
                return Retry(attempts: 1, location: location)
            }
            return reader.integer(node, "'retry'", atLeast: 1).map { Retry(attempts: $0, location: location) }
        }
        guard let fields = reader.mapping(node, "'retry'") else { return nil }
        let allowed = ["attempts", "delay", "backoff", "max-delay", "jitter", "on"]
        reader.rejectUnknownKeys(fields, allowed: allowed, in: "'retry'")
        var attempts = 3
        var delay = Duration.seconds(1)
        var backoff = Retry.Backoff.exponential
        var maxDelay: Duration?
        var jitter = Retry.Jitter.none
        var conditions: [Retry.Condition] = []
        for field in fields {
            switch field.key {
            case "attempts":
                if reader.deferred(
                    field.value, "'attempts'", as: .wholeNumber(atLeast: 1), to: .retryAttempts(step: step))
                {
                    continue
                }
                attempts = reader.integer(field.value, "'attempts'", atLeast: 1) ?? attempts
            case "delay":
                if reader.deferred(field.value, "'delay'", as: .duration, to: .retryDelay(step: step)) { continue }
                delay = reader.duration(field.value, "'delay'") ?? delay
            case "backoff": backoff = reader.choice(field.value, "backoff", as: Retry.Backoff.self) ?? backoff
            case "max-delay":
                if reader.deferred(field.value, "'max-delay'", as: .duration, to: .retryMaxDelay(step: step)) {
                    continue
                }
                maxDelay = reader.duration(field.value, "'max-delay'")
            case "jitter": jitter = reader.choice(field.value, "jitter", as: Retry.Jitter.self) ?? jitter
            case "on": conditions = reader.items(field.value).compactMap { parseRetryCondition($0) }
            default: break
            }
        }
        return Retry(
            attempts: attempts,
            delay: delay,
            backoff: backoff,
            maxDelay: maxDelay,
            jitter: jitter,
            on: conditions,
            location: location
        )
    }

    private mutating func parseRetryCondition(_ node: Node) -> Retry.Condition? {
        guard case .scalar(let scalar) = node else {
            reader.typeError("a 'retry.on' entry", expected: "a status or 'connection-error' or 'timeout'", at: node)
            return nil
        }
        switch scalar.string {
        case "connection-error": return .connectionError
        case "timeout": return .timeout
        default:
            if let alternative = StatusPattern.alternative(scalar.string) {
                return .status(StatusPattern([alternative]))
            }
            reader.error(
                "unknown 'retry.on' entry '\(Echo.text(scalar.string))'",
                at: node,
                hint: "use a status (429, 5xx), 'connection-error' or 'timeout'"
            )
            return nil
        }
    }
}
