/// The step definitions: the keys every step shares, one of the five kinds, and groups, which
/// hold steps again (the schema recurses through `#/$defs/steps`).
extension WorkflowSchema {
    /// The keys that choose a step's kind; a step has exactly one.
    static let kindKeys = ["http", "upload", "run", "sleep", "parallel", "uses", "call"]

    static var stepsDefinition: JSONNode {
        .object([
            "description": .string("A mapping from step id to step; ids are unique across the whole file."),
            "type": .string("object"),
            "minProperties": .integer(1),
            "propertyNames": SchemaVocabulary.ref("identifier"),
            "additionalProperties": SchemaVocabulary.ref("step"),
        ])
    }

    static var stepDefinition: JSONNode {
        typealias V = SchemaVocabulary
        // A group is `parallel` with `steps`: on a `for-each` step, `parallel` alone is the items' policy.
        let kinds = kindKeys.map { key in
            JSONNode.object(["required": .array(([key] + (key == "parallel" ? ["steps"] : [])).map(JSONNode.string))])
        }
        return V.closedObject(
            "A step: exactly one of `http`, `upload`, `run`, `sleep`, `uses`, `call`, or `parallel` with `steps`.",
            properties: [
                "name": V.text("The step's name, for humans."),
                "description": V.text("What the step does, for humans."),
                "needs": V.ref("needs"),
                "if": .object([
                    "description": .string(
                        "When the step runs. Default `${{ success() }}`: every need succeeded. Also `failure()`, "
                            + "`always()`, `cancelled()`."
                    ),
                    "type": .array([.string("string"), .string("boolean")]),
                ]),
                "timeout": V.orExpression(
                    "The step fails when it runs longer than this, retries included.", V.ref("duration")),
                "retry": V.ref("retry"),
                "repeat": V.ref("repeat"),
                "continue-on-error": V.boolean("A failure is recorded but counts as success for dependents."),
                "allow-outside": V.boolean(
                    "Let paths whose `${{ }}` values lead outside the folder their written text names "
                        + "(`save-to`, `body-file`, `upload.file`, multipart files) through (default false)."),
                "outputs": V.map(
                    "Values evaluated after the step succeeded, read as `steps.<id>.outputs.<name>`; "
                        + "`{ value, secret: true }` masks the value from then on.",
                    values: .object([
                        "anyOf": .array([
                            V.scalar,
                            V.closedObject(
                                "An output masked like a secret once known.",
                                properties: [
                                    "value": V.text("The output's value."),
                                    "secret": V.boolean("Mask the value in everything the run prints or writes."),
                                ],
                                required: ["value"]),
                        ])
                    ])
                ).adding(["propertyNames": V.ref("identifier")]),
                "http": V.ref("http", "Send an HTTP request."),
                "upload": V.ref("upload", "Upload a file in chunks (tus or Content-Range)."),
                "run": V.ref("run", "Run a local command."),
                "sleep": V.ref("duration", "Wait this long."),
                "parallel": V.choice(
                    "A group: `all` succeeds when every child does; `any` when the first child succeeds.",
                    ["all", "any"]
                ),
                "steps": V.ref("steps", "The group's children; they start together when the group starts."),
                "at-least": V.integer("An `any` group succeeds after this many children succeeded.", minimum: 1),
                "fail-fast": V.boolean(
                    "An `all` group cancels its children at the first failure (default true); false waits for all."
                ),
                "expect": V.ref("expect"),
                "env": V.map("Environment variables of the command (expressions allowed).", values: V.scalar),
                "cwd": V.text("The command's working directory."),
                "for-each": forEachProperty("for-each"),
                "as": forEachProperty("as"),
                "concurrency": forEachProperty("concurrency"),
                "items": forEachProperty("items"),
                "uses": .object([
                    "description": .string(
                        "Run another workflow file as this step: a local path relative to this file "
                            + "(`./deploy.yaml`), not a URL. Its top-level `outputs` are this step's outputs."),
                    "type": .string("string"),
                    "minLength": .integer(1),
                    "not": .object(["pattern": .string("^[A-Za-z][A-Za-z0-9+.-]*://")]),
                ]),
                "call": .object([
                    "description": .string(
                        "Run a handler the host program registers (FlowKit's `HostStepRegistry`) as this step; "
                            + "`with` gives its inputs, what it returns are the step's outputs."),
                    "type": .string("string"),
                    "pattern": .string("^[A-Za-z_][A-Za-z0-9_-]*(\\.[A-Za-z_][A-Za-z0-9_-]*)*$"),
                ]),
                "with": V.map(
                    "A `uses` step: the called file's inputs (literal values or expressions), checked against "
                        + "its `inputs`. A `call` step: the handler's inputs, any values.",
                    values: .object([:])
                ),
            ]
        ).adding([
            "oneOf": .array(kinds),
            "dependentRequired": .object([
                "steps": .array([.string("parallel")]),
                "at-least": .array([.string("parallel")]),
                "as": .array([.string("for-each")]),
                "concurrency": .array([.string("for-each")]),
                "items": .array([.string("for-each"), .string("steps")]),
                "env": .array([.string("run")]),
                "cwd": .array([.string("run")]),
            ]),
            "dependentSchemas": .object([
                "parallel": requiresOneOf("steps", "for-each"),
                "fail-fast": requiresOneOf("parallel", "for-each"),
                "at-least": .object(["properties": .object(["parallel": .object(["const": .string("any")])])]),
                "fail-fast": .object(["properties": .object(["parallel": .object(["const": .string("all")])])]),
                "uses": .object(["not": .object(["required": .array([.string("retry")])])]),
                "with": requiresOneOf("uses", "call"),
                "expect": .object([
                    "anyOf": .array([
                        .object(["required": .array([.string("http")])]),
                        .object(["required": .array([.string("upload")])]),
                    ])
                ]),
            ]),
        ])
    }

    /// `for-each` and its `as` and `concurrency` (its `parallel`, `at-least` and `fail-fast` are
    /// the group keys, described there).
    static var forEachProperties: [String: JSONNode] {
        typealias V = SchemaVocabulary
        return [
            "for-each": .object([
                "description": .string(
                    "Run the step once per item: a YAML list or mapping, or one `${{ }}` giving a list "
                        + "(`range(0, 10)`, `files('data/*.csv')`, a list output). `item` and `index` are in scope."
                ),
                "anyOf": .array([
                    .object(["type": .string("array")]),
                    .object(["type": .string("object")]),
                    .object(["type": .string("string"), "pattern": .string("^\\s*\\$\\{\\{.*\\}\\}\\s*$")]),
                ]),
            ]),
            "as": .object([
                "description": .string("The item's name in expressions (default `item`)."),
                "type": .string("string"),
                "pattern": .string("^[A-Za-z_][A-Za-z0-9_]*$"),
                "not": .object(["enum": .array((Roots.names + ["index"]).map(JSONNode.string))]),
            ]),
            "concurrency": V.integer(
                "Items of a `for-each` step in flight at once (default and cap: the workflow's `concurrency`).",
                minimum: 1),
            "items": V.closedObject(
                "The items' policy of a group with `for-each` (its own `parallel` decides each item): "
                    + "`parallel: all` (default) or `any`, `at-least` with `any`, `fail-fast` with `all`.",
                properties: [
                    "parallel": .object(["enum": .array([.string("all"), .string("any")])]),
                    "at-least": V.integer("Successful items needed with `parallel: any` (default 1).", minimum: 1),
                    "fail-fast": V.boolean("The first failed item cancels the others (default true)."),
                ]),
        ]
    }

    private static func forEachProperty(_ key: String) -> JSONNode {
        forEachProperties[key] ?? .object([:])
    }

    private static func requiresOneOf(_ first: String, _ second: String) -> JSONNode {
        .object([
            "anyOf": .array([
                .object(["required": .array([.string(first)])]),
                .object(["required": .array([.string(second)])]),
            ])
        ])
    }

    /// A text, or a list of texts that repeats its name (`query`, `headers`, `form`).
    static var scalarOrList: JSONNode {
        .object([
            "anyOf": .array([
                SchemaVocabulary.scalar, .object(["type": .string("array"), "items": SchemaVocabulary.scalar]),
            ])
        ])
    }

    static var httpDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "An HTTP request; at most one body (`json`, `form`, `body`, `body-file`, `multipart`).",
            properties: [
                "method": methodDefinition("The method (default GET)."),
                "url": V.text("The URL; a relative one resolves against `defaults.http.base-url`."),
                "query": V.map(
                    "Query parameters, added to the URL encoded; a list repeats the name.",
                    values: scalarOrList),
                "headers": V.map("Request headers; a list sends the header once per item.", values: scalarOrList),
                "json": .object(["description": .string("A JSON body: any YAML value (expressions allowed).")]),
                "form": V.map("A url-encoded form body; a list repeats the field.", values: scalarOrList),
                "body": .object([
                    "description": .string(
                        "A text body, or bytes written inline as `{ base64: TEXT }` or `{ hex: TEXT }`."),
                    "anyOf": .array(
                        [V.text("The text sent.")]
                            + BinaryEncoding.allCases.map { encoding in
                                V.closedObject(
                                    "Bytes written in \(encoding.rawValue), sent as decoded.",
                                    properties: [encoding.rawValue: V.text("The \(encoding.rawValue) text.")],
                                    required: [encoding.rawValue])
                            }),
                ]),
                "body-file": V.either(
                    "A file sent as the body, streamed; or a byte range of it.",
                    [
                        V.text("The file."),
                        V.closedObject(
                            "`length` bytes of the file from `offset` (an S3 part, a chunk).",
                            properties: [
                                "path": V.text("The file."),
                                "offset": V.text("The first byte sent (default 0); a number or `${{ }}`."),
                                "length": V.text("How many bytes (default: to the end); a number or `${{ }}`."),
                            ],
                            required: ["path"]),
                    ]),
                "multipart": multipartDefinition,
                "timeout": V.orExpression("The request's timeout.", V.ref("duration")),
                "follow-redirects": V.boolean("Whether to follow redirects (default true)."),
                "keep-credentials-on-redirect": V.boolean(
                    "Whether Authorization, Cookie and secret-holding headers go on to another origin after a "
                        + "redirect (default false: they are dropped)."),
                "delay": V.ref("duration", "How long to wait before the request is first sent (default none)."),
                "compressed": V.boolean(
                    "Whether to offer Accept-Encoding and decode the body (default `defaults.http.compressed`, true)."),
                "allow-insecure-redirect": V.boolean(
                    "Whether a redirect from https to plain http is followed (default false: it fails the request)."),
                "http-version": .object([
                    "description": .string(
                        "The HTTP version: \"1.0\", \"1.1\", or 2 (ALPN over https, prior knowledge over http)."),
                    "enum": .array(HTTPVersionSetting.allCases.map { JSONNode.string($0.rawValue) } + [.integer(2)]),
                ]),
                "tls": V.ref("tls", "TLS certificates (over `defaults.http.tls`, key by key)."),
                "auth": V.ref("auth", "The `Authorization` header (default `defaults.http.auth`)."),
                "proxy": V.ref("proxy", "The proxy (default `defaults.http.proxy`)."),
                "cookies": V.boolean("Whether to use the run's cookie jar (default `defaults.http.cookies`)."),
                "save-to": V.text(
                    "Stream a 2xx body to this file (relative to the workflow's folder), written atomically."),
                "resume": V.boolean("Continue a partial `save-to` download with a Range request (GET only)."),
                "max-body": V.ref("size", "The largest body kept in memory (default `defaults.http.max-body`, 64MiB)."),
                "max-size": V.ref("size", "The largest `save-to` file; a larger body fails the step (default none)."),
                "expect": V.ref("expect", "What the response must look like (here or next to `http`, not both)."),
            ]
        ).adding([
            "not": .object([
                "anyOf": .array(
                    bodyPairs
                        .map { .object(["required": .array([.string($0.0), .string($0.1)])]) }
                )
            ])
        ])
    }

    static var uploadDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "A chunked file upload.",
            properties: [
                "file": V.text("The file to upload."),
                "url": V.text(
                    "Where to upload: the tus creation URL, the Content-Range target, or the S3 object's URL."),
                "protocol": V.choice("The upload protocol.", ["tus", "content-range", "s3"]),
                "method": methodDefinition("The method of each Content-Range chunk (default PUT)."),
                "chunk-size": V.orExpression(
                    "The size of each chunk (default 5MiB; s3: chosen from the file's size).", V.ref("size")),
                "chunks-in-flight": V.integer("s3: parts sent at once (default 4, at most 64).", minimum: 1),
                "region": V.text("s3: the signing region (default from the host, else AWS_REGION, else us-east-1)."),
                "storage-class": V.text("s3: the object's storage class (`x-amz-storage-class`)."),
                "content-type": V.text("s3: the object's Content-Type (default from the file's extension)."),
                "checksum": V.choice("s3: the checksum of every part (default sha256).", ["sha256", "md5"]),
                "headers": V.map("Headers sent with every request of the upload.", values: V.scalar),
                "metadata": V.map("tus `Upload-Metadata` pairs (filename and filetype are added).", values: V.scalar),
                "tls": V.ref("tls", "TLS certificates (over `defaults.http.tls`, key by key)."),
                "auth": V.ref(
                    "upload-auth",
                    "tus, content-range: the `Authorization` header; s3: `aws-sigv4` keys (default `defaults.http.auth`)."
                ),
                "proxy": V.ref("proxy", "The proxy (default `defaults.http.proxy`)."),
                "cookies": V.boolean("Whether to use the run's cookie jar (default `defaults.http.cookies`)."),
                "expect": V.ref(
                    "expect", "What the last response must look like (here or next to `upload`, not both)."),
            ],
            required: ["file", "url", "protocol"]
        )
    }

    static var runDefinition: JSONNode {
        SchemaVocabulary.either(
            "A command: a string is a script for `/bin/sh -c`; a list is an argv run without a shell. "
                + "`${{ }}` values reach a script as environment variables, never spliced into its text.",
            [
                .object(["type": .string("string"), "minLength": .integer(1)]),
                .object([
                    "type": .string("array"), "minItems": .integer(1),
                    "items": .object(["type": .array([.string("string"), .string("number"), .string("boolean")])]),
                ]),
            ]
        )
    }

    static var expectDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.closedObject(
            "What the response must look like; a failed expectation fails the step.",
            properties: [
                "status": V.ref("status"),
                "headers": V.map(
                    "Response headers that must be present (names in any case), each equal to its value or "
                        + "matching it as a whole-value regular expression.", values: V.scalar),
                "assert": .object([
                    "description": .string("Expressions that must all be true (they may read `result`)."),
                    "type": .string("array"),
                    "items": .object(["type": .array([.string("string"), .string("boolean")])]),
                ]),
            ]
        )
    }

    /// The methods flow sends: the seven common ones in any letter case as the parser accepts them
    /// (the listed upper-case spellings are what editors offer), or any other method token written
    /// without lower-case letters (`PROPFIND`).
    static func methodDefinition(_ description: String) -> JSONNode {
        let methods = HTTPMethod.allCases.map(\.rawValue)
        let anyCase =
            methods.map { method in
                method.map { "[\($0)\($0.lowercased())]" }.joined()
            } + ["[A-Z0-9!#$%&'*+.^_`|~-]+"]
        return SchemaVocabulary.either(
            description,
            [
                .object(["enum": .array(methods.map(JSONNode.string))]),
                .object(["type": .string("string"), "pattern": .string("^(" + anyCase.joined(separator: "|") + ")$")]),
            ]
        )
    }
}
