/// Turns a composed YAML document into workflow parts, reporting every shape problem.
struct WorkflowParser {
    static let topLevelKeys = [
        "version", "name", "description", "inputs", "env", "defaults", "concurrency", "services", "steps",
        "outputs", "optional-secrets",
    ]

    /// The parsed parts; the checker turns them into a `Workflow`.
    struct Parts {
        var version = 1
        var name: String?
        var description: String?
        var inputs: [Input] = []
        var env: [NamedValue] = []
        var defaults = Defaults()
        /// See `Workflow.settingsFingerprint`.
        var settingsFingerprint: UInt64?
        var concurrency = Workflow.defaultConcurrency
        var services: [Service] = []
        var steps: [Step] = []
        var stepsLocation: SourceLocation?
        var outputs: [NamedValue] = []
        var optionalSecrets: Set<String> = []
    }

    var reader: NodeReader
    /// The top-level steps, already parsed while the file was read (see `StepStream`).
    let streamed: StepStream.Parsed?

    init(file: String, streamed: StepStream.Parsed? = nil) {
        reader = NodeReader(file: file)
        self.streamed = streamed
    }

    mutating func parse(_ root: Node) -> Parts {
        var parts = Parts()
        guard case .mapping = root else {
            reader.error(
                "a workflow must be a mapping with 'version' and 'steps', not \(reader.describe(root))",
                at: root
            )
            return parts
        }
        guard let entries = reader.mapping(root, "the workflow") else { return parts }
        reader.rejectUnknownKeys(entries, allowed: Self.topLevelKeys, in: "the workflow")
        let byKey = NodeReader.Fields(entries)
        if let version = byKey["version"] {
            parseVersion(version.value, into: &parts)
        } else {
            reader.error("the workflow has no 'version'", at: root, hint: "add 'version: 1' at the top")
        }
        parts.name = byKey["name"].flatMap { reader.string($0.value, "'name'") }
        parts.description = byKey["description"].flatMap { reader.string($0.value, "'description'") }
        if let inputs = byKey["inputs"] { parts.inputs = parseInputs(inputs.value) }
        if let env = byKey["env"] { parts.env = reader.namedValues(env.value, "'env'") }
        if let defaults = byKey["defaults"] { parts.defaults = parseDefaults(defaults.value) }
        parts.settingsFingerprint = Self.settingsFingerprint(
            env: byKey["env"]?.value, defaults: byKey["defaults"]?.value)
        if let concurrency = byKey["concurrency"],
            !reader.deferred(concurrency.value, "'concurrency'", as: .wholeNumber(atLeast: 1), to: .concurrency),
            let value = reader.integer(concurrency.value, "'concurrency'", atLeast: 1)
        {
            parts.concurrency = value
        }
        if let services = byKey["services"] { parts.services = parseServices(services.value) }
        if let outputs = byKey["outputs"] { parts.outputs = reader.namedValues(outputs.value, "'outputs'") }
        if let optional = byKey["optional-secrets"] {
            for item in reader.items(optional.value) {
                if let name = reader.string(item, "'optional-secrets'") { parts.optionalSecrets.insert(name) }
            }
        }
        if let steps = byKey["steps"] {
            parts.stepsLocation = reader.location(steps.keyNode)
            if let streamed {
                // Parsed last, as below: their messages and settings come after the others.
                parts.steps = streamed.steps
                reader.diagnostics += streamed.diagnostics
                reader.settings += streamed.settings
            } else {
                var stepParser = StepParser(reader: reader)
                parts.steps = stepParser.parseSteps(steps.value, parent: nil)
                reader = stepParser.reader
            }
            if parts.steps.isEmpty, case .mapping = steps.value {
                reader.error("'steps' is empty", at: steps.keyNode, hint: "a workflow needs at least one step")
            }
        } else {
            reader.error("the workflow has no 'steps'", at: root, hint: "add a 'steps:' mapping of step ids to steps")
        }
        return parts
    }

    /// See `Workflow.settingsFingerprint`: each part named, then its value or a mark of its
    /// absence, so that moving a value from one to the other counts as a change.
    static func settingsFingerprint(env: Node?, defaults: Node?) -> UInt64 {
        func scalar(_ text: String) -> Node {
            .scalar(Node.Scalar(string: text, style: .doubleQuoted, mark: Node.Mark(line: 0, column: 0)))
        }
        var fingerprint = NodeFingerprint()
        for (name, node) in [("env", env), ("defaults", defaults)] {
            fingerprint.addNode(scalar(name))
            fingerprint.addNode(node ?? .sequence(Node.Sequence(nodes: [], mark: Node.Mark(line: 0, column: 0))))
        }
        return fingerprint.value
    }

    private mutating func parseVersion(_ node: Node, into parts: inout Parts) {
        let supported = LanguageVersion.supported.map(String.init).joined(separator: ", ")
        guard case .scalar(let scalar) = node, Double(scalar.string) != nil else {
            reader.typeError("'version'", expected: "a number", at: node, hint: "write 'version: 1'")
            return
        }
        guard let version = Int(scalar.string) else {
            reader.error(
                "unsupported version \(scalar.string)", at: node, hint: "this flow understands version \(supported)")
            return
        }
        guard LanguageVersion.supported.contains(version) else {
            reader.error(
                "unsupported version \(version)",
                at: node,
                hint: "this flow understands version \(supported)"
            )
            return
        }
        parts.version = version
    }

    private mutating func parseInputs(_ node: Node) -> [Input] {
        guard let entries = reader.mapping(node, "'inputs'") else { return [] }
        var inputs: [Input] = []
        for entry in entries {
            guard IdentifierSyntax.isValidName(entry.key) else {
                reader.error(
                    "input name '\(Echo.text(entry.key))' is not valid",
                    at: entry.keyNode,
                    hint: "names match [A-Za-z_][A-Za-z0-9_-]*"
                )
                continue
            }
            let what = "input '\(Echo.text(entry.key))'"
            guard let fields = reader.mapping(entry.value, what) else { continue }
            reader.rejectUnknownKeys(fields, allowed: ["type", "default", "required", "description"], in: what)
            var kind = Input.Kind.string
            var defaultValue: InputValue?
            var required = false
            var description: String?
            for field in fields {
                switch field.key {
                case "type": kind = reader.choice(field.value, "input type", as: Input.Kind.self) ?? kind
                case "required": required = reader.bool(field.value, "'required'") ?? false
                case "description": description = reader.string(field.value, "'description'")
                default: break
                }
            }
            if let field = fields.first(where: { $0.key == "default" }) {
                defaultValue = parseDefault(field.value, kind: kind, input: entry.key)
            }
            inputs.append(
                Input(
                    name: entry.key,
                    location: reader.location(entry.keyNode),
                    kind: kind,
                    defaultValue: defaultValue,
                    required: required,
                    description: description
                ))
        }
        return inputs
    }

    private mutating func parseDefault(_ node: Node, kind: Input.Kind, input: String) -> InputValue? {
        guard case .scalar(let scalar) = node else {
            reader.typeError("the default of input '\(Echo.text(input))'", expected: "a \(kind.rawValue)", at: node)
            return nil
        }
        guard let value = InputValue.parse(scalar.string, as: kind) else {
            reader.error(
                "the default of input '\(Echo.text(input))' must be a \(kind.rawValue), not '\(Echo.text(scalar.string))'",
                at: node
            )
            return nil
        }
        return value
    }

    private mutating func parseDefaults(_ node: Node) -> Defaults {
        guard let entries = reader.mapping(node, "'defaults'") else { return Defaults() }
        reader.rejectUnknownKeys(entries, allowed: ["http", "retry", "timeout"], in: "'defaults'")
        var http = HTTPDefaults()
        var retry: Retry?
        var timeout: Duration?
        for entry in entries {
            switch entry.key {
            case "http": http = parseHTTPDefaults(entry.value)
            case "retry":
                var stepParser = StepParser(reader: reader)
                retry = stepParser.parseRetry(entry.value, at: entry.keyNode, step: nil)
                reader = stepParser.reader
            case "timeout":
                if !reader.deferred(entry.value, "'timeout'", as: .duration, to: .timeout(step: nil)) {
                    timeout = reader.duration(entry.value, "'timeout'")
                }
            default: break
            }
        }
        return Defaults(http: http, retry: retry, timeout: timeout)
    }

    private mutating func parseHTTPDefaults(_ node: Node) -> HTTPDefaults {
        guard let entries = reader.mapping(node, "'defaults.http'") else { return HTTPDefaults() }
        reader.rejectUnknownKeys(
            entries,
            allowed: ["base-url", "headers", "timeout", "follow-redirects", "no-proxy", "max-body", "compressed"]
                + StepParser.transportKeys,
            in: "'defaults.http'"
        )
        var baseURL: ScalarText?
        var headers: [NamedValue] = []
        var timeout: Duration?
        var followRedirects: Bool?
        var maxBody: Int?
        for entry in entries {
            switch entry.key {
            case "base-url": baseURL = reader.text(entry.value, "'base-url'")
            case "headers": headers = reader.repeatableNamedValues(entry.value, "'headers'")
            case "timeout":
                if !reader.deferred(entry.value, "'timeout'", as: .duration, to: .httpTimeout(step: nil)) {
                    timeout = reader.duration(entry.value, "'timeout'")
                }
            case "follow-redirects": followRedirects = reader.bool(entry.value, "'follow-redirects'")
            case "max-body": maxBody = reader.size(entry.value, "'max-body'")
            default: break
            }
        }
        var defaults = HTTPDefaults(
            baseURL: baseURL, headers: headers, timeout: timeout, followRedirects: followRedirects)
        var field = NodeReader.Fields(entries)
        // `cookies: { load, save }` names the jar's files and turns the jar on for every request.
        let cookieFiles = parseCookieFiles(field["cookies"])
        if cookieFiles != nil { field = NodeReader.Fields(entries.filter { $0.key != "cookies" }) }
        var stepParser = StepParser(reader: reader)
        defaults.transport = stepParser.parseTransport(field)
        reader = stepParser.reader
        if let cookieFiles {
            let transport = defaults.transport
            defaults.transport = HTTPTransportSettings(
                tls: transport.tls, auth: transport.auth, proxy: transport.proxy, cookies: true)
            defaults.cookieFiles = cookieFiles
        }
        defaults.noProxy = field["no-proxy"].flatMap { reader.text($0.value, "'no-proxy'") }
        defaults.maxBody = maxBody
        defaults.compressed = field["compressed"].flatMap { reader.bool($0.value, "'compressed'") }
        return defaults
    }
}
