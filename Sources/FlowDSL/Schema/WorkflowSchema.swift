/// The JSON Schema (draft 2020-12) of the workflow language, for editors that complete and check
/// workflow files through the YAML language server (`flow schema` prints it).
///
/// The schema checks structure only: keys, types, short forms, and the shapes of durations, sizes
/// and status patterns. What needs the whole file (unknown step ids in `needs`, cycles, expression
/// roots) is `flow validate`'s job.
package enum WorkflowSchema {
    /// The `$id` of the schema: where it would be published, and how tools tell versions apart.
    package static let identifier = "https://flow.invalid/schema/workflow-v1.json"

    /// The schema as indented JSON text, with a trailing newline.
    package static var jsonText: String {
        document.rendered() + "\n"
    }

    static var document: JSONNode {
        .object([
            "$schema": .string("https://json-schema.org/draft/2020-12/schema"),
            "$id": .string(identifier),
            "title": .string("flow workflow"),
            "description": .string(
                "A flow workflow (language version 1): HTTP requests, chunked uploads, local commands and "
                    + "waits, their dependencies, and parallel groups."
            ),
            "type": .string("object"),
            "required": .array([.string("version"), .string("steps")]),
            "properties": topLevelProperties,
            "additionalProperties": .bool(false),
            "$defs": .object(definitions),
        ])
    }

    private static var topLevelProperties: JSONNode {
        typealias V = SchemaVocabulary
        return .object([
            "version": .object([
                "description": .string("The language version of this file. Required; only 1 exists."),
                "enum": .array(LanguageVersion.supported.map(JSONNode.integer)),
            ]),
            "name": V.text("The workflow's name, shown in output and reports."),
            "description": V.text("What the workflow does, for humans."),
            "inputs": V.map(
                "Values given at run time with `flow run --input name=value`, read as `inputs.<name>`.",
                values: V.ref("input")
            ).adding(["propertyNames": V.ref("identifier")]),
            "env": V.map(
                "Environment variables exported to every `run` step (expressions allowed).",
                values: V.scalar
            ),
            "defaults": V.closedObject(
                "Settings every step inherits unless it sets its own.",
                properties: [
                    "http": V.ref("httpDefaults"),
                    "retry": V.ref("retry", "The retry policy of every step that does not set `retry`."),
                    "timeout": V.orExpression(
                        "The timeout of every step that does not set `timeout`.", V.ref("duration")),
                ]
            ),
            "concurrency": V.orExpression(
                "The most steps in flight at once (default 16); `flow run --concurrency N` overrides it.",
                .object(["type": .string("integer"), "minimum": .integer(1)])
            ),
            "services": V.map(
                "Local processes started before the first step and stopped when the run ends, each on a free "
                    + "loopback port read as `services.<name>.port` and `services.<name>.url`.",
                values: V.ref("service")
            ).adding(["propertyNames": V.ref("identifier")]),
            "steps": V.ref("steps", "The workflow's steps: a mapping from step id to step. Required."),
            "optional-secrets": .object([
                "description": .string(
                    "Secrets the workflow can do without: unset or empty, `secrets.NAME` reads null instead of "
                        + "stopping the run."),
                "type": .string("array"), "items": .object(["type": .string("string")]),
            ]),
            "outputs": V.map(
                "Values evaluated after every step finished; a file that calls this one with `uses` reads "
                    + "them as `steps.<uses-step>.outputs.<name>`.",
                values: V.scalar
            ).adding(["propertyNames": V.ref("identifier")]),
        ])
    }

    private static var definitions: [JSONNode.Member] {
        var members: [JSONNode.Member] = []
        func define(_ name: String, _ node: JSONNode) { members.append(.init(key: name, value: node)) }
        define("identifier", identifierDefinition)
        define("expression", expressionDefinition)
        define("input", inputDefinition)
        define("httpDefaults", httpDefaultsDefinition)
        define("service", serviceDefinition)
        define("steps", stepsDefinition)
        define("step", stepDefinition)
        define("http", httpDefinition)
        define("upload", uploadDefinition)
        define("run", runDefinition)
        define("expect", expectDefinition)
        define("status", statusDefinition)
        define("needs", needsDefinition)
        define("retry", retryDefinition)
        define("repeat", repeatDefinition)
        define("duration", durationDefinition)
        define("size", sizeDefinition)
        members += transportDefinitions
        return members
    }

    private static var inputDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "A declared input.",
            properties: [
                "type": V.choice(
                    "The input's type; a `file` input is a path resolved against the current directory.",
                    ["string", "number", "boolean", "file"]
                ),
                "default": .object(["description": .string("The value used when `--input` does not set one.")]),
                "required": V.boolean("Whether `flow run` refuses to start without this input."),
                "description": V.text("What the input is for, for humans."),
            ]
        )
    }

    private static var serviceDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "A service: a command flow starts before the first step, waits for, and stops when the run ends.",
            properties: [
                "run": V.ref("run", "The command that starts the service (a script or an argv, as in `run` steps)."),
                "ready": V.closedObject(
                    "When the service is ready: `http` (a URL answering 2xx) or `port` (accepting connections). "
                        + "Default: its own port accepts connections.",
                    properties: [
                        "http": V.text("A URL polled with GET until it answers 2xx."),
                        "port": SchemaVocabulary.either(
                            "A port on 127.0.0.1 polled until it accepts connections.",
                            [
                                .object([
                                    "type": .string("integer"), "minimum": .integer(1), "maximum": .integer(65535),
                                ]),
                                V.ref("expression"),
                            ]
                        ),
                    ]
                ).adding([
                    "minProperties": .integer(1),
                    "maxProperties": .integer(1),
                ]),
                "timeout": V.ref("duration", "How long flow waits for the service to be ready (default 30s)."),
                "env": V.map("Environment variables of the service (expressions allowed).", values: V.scalar),
            ],
            required: ["run"]
        )
    }

    private static var httpDefaultsDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "Defaults for every `http` step.",
            properties: [
                "base-url": V.text("The URL relative step URLs resolve against."),
                "headers": V.map("Headers sent with every request; a list sends one per item.", values: scalarOrList),
                "timeout": V.orExpression("The timeout of every request.", V.ref("duration")),
                "follow-redirects": V.boolean("Whether requests follow redirects (default true)."),
                "compressed": V.boolean("Whether requests offer Accept-Encoding and decode bodies (default true)."),
                "tls": V.ref("tls", "TLS certificates of every request."),
                "auth": V.ref("auth", "The `Authorization` of every request."),
                "proxy": V.ref("proxy", "The proxy of every request."),
                "no-proxy": V.text("Hosts reached without the proxy, comma-separated (default: `NO_PROXY`)."),
                "cookies": V.either(
                    "Keep one cookie jar for the run's requests (default false); with `load`/`save`, read it from and "
                        + "write it to Netscape cookie files (curl's -b and -c).",
                    [
                        V.boolean("Whether to keep the jar."),
                        V.closedObject(
                            "The jar's files (relative to the workflow's folder).",
                            properties: [
                                "load": V.text("A Netscape cookie file read into the jar when the run starts."),
                                "save": V.text("The file the jar is written to when the run ends."),
                            ]),
                    ]),
                "max-body": V.ref("size", "The largest response body kept in memory (default 64MiB)."),
            ]
        )
    }
}
