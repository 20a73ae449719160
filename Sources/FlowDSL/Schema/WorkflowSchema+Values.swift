/// The value shapes shared by many keys: ids, expressions, durations, sizes, status patterns,
/// `needs` and `retry` with their short forms.
extension WorkflowSchema {
    /// What a step id (and an input name) looks like.
    static let identifierPattern = "^[A-Za-z_][A-Za-z0-9_-]*$"

    static var identifierDefinition: JSONNode {
        .object([
            "description": .string("An id: a letter or `_`, then letters, digits, `_` or `-`."),
            "type": .string("string"),
            "pattern": .string(identifierPattern),
        ])
    }

    /// A string that is exactly one `${{ }}`: it keeps the type of its value, so it may stand where
    /// a number, boolean or duration is expected.
    static var expressionDefinition: JSONNode {
        .object([
            "description": .string("A single `${{ expression }}`, evaluated at run time."),
            "type": .string("string"),
            "pattern": .string("^\\s*\\$\\{\\{[\\s\\S]*\\}\\}\\s*$"),
        ])
    }

    static var durationDefinition: JSONNode {
        SchemaVocabulary.either(
            "A duration: `250ms`, `10s`, `1m30s`, `2h`, or a number of seconds.",
            [
                .object(["type": .string("number"), "minimum": .integer(0)]),
                .object([
                    "type": .string("string"),
                    "pattern": .string("^[ \\t]*(([0-9]+(\\.[0-9]+)?(ms|s|m|h))+|[0-9]+(\\.[0-9]+)?)[ \\t]*$"),
                ]),
            ]
        )
    }

    static var sizeDefinition: JSONNode {
        SchemaVocabulary.either(
            "A size in bytes, or with a suffix: B, KB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024).",
            [
                .object(["type": .string("integer"), "minimum": .integer(1)]),
                .object([
                    "type": .string("string"),
                    "pattern": .string("^[ \\t]*[0-9]+(\\.[0-9]+)?[ \\t]*(B|KB|MB|GB|KiB|MiB|GiB)?[ \\t]*$"),
                ]),
            ]
        )
    }

    /// One status alternative: a code 100–599 (a number or text) or a class `1xx`–`5xx`.
    static var statusAlternative: JSONNode {
        .object([
            "anyOf": .array([
                .object(["type": .string("integer"), "minimum": .integer(100), "maximum": .integer(599)]),
                .object(["type": .string("string"), "pattern": .string("^[1-5]([0-9][0-9]|[xX][xX])$")]),
            ])
        ])
    }

    static var statusDefinition: JSONNode {
        SchemaVocabulary.either(
            "The expected status: a code (`200`), a list of codes (`[200, 201]`), or a class (`2xx`). "
                + "Default: any 2xx.",
            [
                statusAlternative,
                .object(["type": .string("array"), "minItems": .integer(1), "items": statusAlternative]),
            ]
        )
    }

    static var needsDefinition: JSONNode {
        SchemaVocabulary.either(
            "The steps that must finish before this one starts: one id or a list of ids.",
            [
                SchemaVocabulary.ref("identifier"),
                .object([
                    "type": .string("array"), "uniqueItems": .bool(true), "items": SchemaVocabulary.ref("identifier"),
                ]),
            ]
        )
    }

    static var retryDefinition: JSONNode {
        typealias V = SchemaVocabulary
        return V.either(
            "How failed attempts are retried: a number of attempts, or a policy.",
            [
                .object(["type": .string("integer"), "minimum": .integer(1)]),
                V.closedObject(
                    "A retry policy.",
                    properties: [
                        "attempts": V.orExpression(
                            "How many attempts in all, the first included.",
                            .object(["type": .string("integer"), "minimum": .integer(1)])),
                        "delay": V.orExpression("The wait before the first retry.", V.ref("duration")),
                        "backoff": V.choice(
                            "How the wait grows between retries.", ["constant", "linear", "exponential"]
                        ),
                        "max-delay": V.orExpression(
                            "The longest wait between attempts (caps `Retry-After` too).", V.ref("duration")),
                        "jitter": V.choice(
                            "Randomisation of the wait: `full` spreads retries apart.", ["none", "full"]),
                        "on": V.either(
                            "What is retried, overriding the default (connection errors, timeouts, 429 and 5xx "
                                + "on idempotent methods): statuses like `429` or `5xx`, `connection-error`, `timeout`.",
                            [retryCondition, .object(["type": .string("array"), "items": retryCondition])]
                        ),
                    ]
                ),
                V.ref("expression"),
            ]
        )
    }

    private static var retryCondition: JSONNode {
        .object([
            "anyOf": .array([
                statusAlternative, .object(["enum": .array([.string("connection-error"), .string("timeout")])]),
            ])
        ])
    }
}
