/// The step definitions: the keys every step shares, one of the five kinds, and groups, which
/// hold steps again (the schema recurses through `#/$defs/steps`).
extension WorkflowSchema {
    /// The keys that choose a step's kind; a step has exactly one.
    static let kindKeys = ["http", "upload", "run", "sleep", "parallel"]

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
        let kinds = kindKeys.map { JSONNode.object(["required": .array([.string($0)])]) }
        return V.closedObject(
            "A step: exactly one of `http`, `upload`, `run`, `sleep`, or `parallel` with `steps`.",
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
                "continue-on-error": V.boolean("A failure is recorded but counts as success for dependents."),
                "outputs": V.map(
                    "Values evaluated after the step succeeded, read as `steps.<id>.outputs.<name>`.",
                    values: V.scalar
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
            ]
        ).adding([
            "oneOf": .array(kinds),
            "dependentRequired": .object([
                "parallel": .array([.string("steps")]),
                "steps": .array([.string("parallel")]),
                "at-least": .array([.string("parallel")]),
                "fail-fast": .array([.string("parallel")]),
                "env": .array([.string("run")]),
                "cwd": .array([.string("run")]),
            ]),
            "dependentSchemas": .object([
                "at-least": .object(["properties": .object(["parallel": .object(["const": .string("any")])])]),
                "fail-fast": .object(["properties": .object(["parallel": .object(["const": .string("all")])])]),
                "expect": .object([
                    "anyOf": .array([
                        .object(["required": .array([.string("http")])]),
                        .object(["required": .array([.string("upload")])]),
                    ])
                ]),
            ]),
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
                    values: .object([
                        "anyOf": .array([V.scalar, .object(["type": .string("array"), "items": V.scalar])])
                    ])),
                "headers": V.map("Request headers.", values: V.scalar),
                "json": .object(["description": .string("A JSON body: any YAML value (expressions allowed).")]),
                "form": V.map("A url-encoded form body.", values: V.scalar),
                "body": V.text("A text body."),
                "body-file": V.text("A file sent as the body, streamed."),
                "multipart": multipartDefinition,
                "timeout": V.orExpression("The request's timeout.", V.ref("duration")),
                "follow-redirects": V.boolean("Whether to follow redirects (default true)."),
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
                "url": V.text("Where to upload: the tus creation URL, or the Content-Range target."),
                "protocol": V.choice("The upload protocol.", ["tus", "content-range"]),
                "method": methodDefinition("The method of each Content-Range chunk (default PUT)."),
                "chunk-size": V.orExpression("The size of each chunk (default 5MiB).", V.ref("size")),
                "headers": V.map("Headers sent with every request of the upload.", values: V.scalar),
                "metadata": V.map("tus `Upload-Metadata` pairs (filename and filetype are added).", values: V.scalar),
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

    /// The methods flow sends, in any letter case as the parser accepts them; the listed upper-case
    /// spellings are what editors offer.
    static func methodDefinition(_ description: String) -> JSONNode {
        let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        let anyCase = methods.map { method in
            method.map { "[\($0)\($0.lowercased())]" }.joined()
        }
        return SchemaVocabulary.either(
            description,
            [
                .object(["enum": .array(methods.map(JSONNode.string))]),
                .object(["type": .string("string"), "pattern": .string("^(" + anyCase.joined(separator: "|") + ")$")]),
            ]
        )
    }
}
