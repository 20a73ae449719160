/// The `services:` section: name → `{run, ready, timeout, env}`.
extension WorkflowParser {
    static let serviceKeys = ["run", "ready", "timeout", "env"]

    mutating func parseServices(_ node: Node) -> [Service] {
        guard let entries = reader.mapping(node, "'services'") else { return [] }
        var services: [Service] = []
        for entry in entries {
            guard IdentifierSyntax.isValidName(entry.key) else {
                reader.error(
                    "service name '\(Echo.text(entry.key))' is not valid",
                    at: entry.keyNode,
                    hint: "names match [A-Za-z_][A-Za-z0-9_-]*"
                )
                continue
            }
            if let service = parseService(entry) { services.append(service) }
        }
        return services
    }

    private mutating func parseService(_ entry: NodeReader.Entry) -> Service? {
        let what = "service '\(Echo.text(entry.key))'"
        guard let fields = reader.mapping(entry.value, what) else { return nil }
        reader.rejectUnknownKeys(fields, allowed: Self.serviceKeys, in: what)
        let byKey = NodeReader.Fields(fields)
        guard let runEntry = byKey["run"] else {
            reader.error(
                "\(what) has no 'run'", at: entry.keyNode,
                hint: "add 'run:' with the command that starts it, e.g. run: [\"python3\", \"-m\", \"http.server\"]")
            return nil
        }
        // Parsed as a `run` step's command so both read the same way; `env` is read the same too.
        var stepParser = StepParser(reader: reader)
        let command = stepParser.parseRun(runEntry, fields: NodeReader.Fields([]))
        reader = stepParser.reader
        let env = byKey["env"].map { reader.namedValues($0.value, "'env'") } ?? []
        let ready = byKey["ready"].flatMap { parseReadiness($0.value, service: entry.key) } ?? .ownPort
        var timeout = Service.defaultTimeout
        if let field = byKey["timeout"], let value = reader.duration(field.value, "'timeout'") {
            if value > .zero {
                timeout = value
            } else {
                reader.error("the readiness 'timeout' of \(what) must be more than 0", at: field.value)
            }
        }
        guard let command else { return nil }
        return Service(
            name: entry.key, location: reader.location(entry.keyNode), command: command.command, env: env,
            ready: ready, timeout: timeout)
    }

    /// `{http: URL}` or `{port: N}`: exactly one.
    private mutating func parseReadiness(_ node: Node, service: String) -> Service.Readiness? {
        let what = "'ready' of service '\(Echo.text(service))'"
        let hint = "write ready: { http: \"${{ services.\(service).url }}/health\" } or ready: { port: 8080 }"
        guard case .mapping = node else {
            reader.typeError(what, expected: "a mapping with 'http' or 'port'", at: node, hint: hint)
            return nil
        }
        guard let fields = reader.mapping(node, what) else { return nil }
        reader.rejectUnknownKeys(fields, allowed: ["http", "port"], in: what)
        let kinds = fields.filter { $0.key == "http" || $0.key == "port" }
        guard let kind = kinds.first else {
            if fields.isEmpty || fields.allSatisfy({ ["http", "port"].contains($0.key) }) {
                reader.error("\(what) needs 'http' or 'port'", at: node, hint: hint)
            }
            return nil
        }
        if kinds.count > 1 {
            reader.error(
                "\(what) has both 'http' and 'port'; give exactly one", at: kinds[1].keyNode,
                hint: "flow checks one thing: an HTTP URL answering 2xx, or a port accepting connections")
            return nil
        }
        switch kind.key {
        case "http":
            return reader.text(kind.value, "'ready.http'").map { .http($0) }
        default:
            guard let text = reader.text(kind.value, "'ready.port'") else { return nil }
            // An expression (or a syntax error, which the expression check reports) is checked later.
            if text.template.map({ !$0.isLiteral }) ?? true { return .port(text) }
            guard let port = Int(text.text.trimmingSpaces), (1...65_535).contains(port) else {
                reader.error(
                    "'ready.port' must be a port number (1–65535) or an expression, not '\(Echo.text(text.text))'",
                    at: kind.value)
                return nil
            }
            return .port(text)
        }
    }
}
