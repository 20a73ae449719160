/// `repeat:` of a step: polling and pagination.
extension WorkflowSchema {
    static var repeatDefinition: JSONNode {
        typealias V = SchemaVocabulary
        let condition = JSONNode.object([
            "type": .array([.string("string"), .string("boolean")])
        ])
        return V.closedObject(
            "Run the step again after each attempt until a condition says stop (polling, pagination). "
                + "`result` is the attempt's result; `previous` (the previous attempt's `result`, null on the "
                + "first) and `attempt` (from 1) are in scope in the step and its conditions.",
            properties: [
                "until": condition.adding([
                    "description": .string("Stop after the attempt for which this holds.")
                ]),
                "while": condition.adding([
                    "description": .string("Go on after each attempt for which this holds.")
                ]),
                "every": V.ref("duration", "The pause between attempts (default 1s)."),
                "max-attempts": V.integer(
                    "The most attempts, the first included (default \(Repeat.defaultMaxAttempts)); then the step fails.",
                    minimum: 1),
                "collect": V.map(
                    "Values gathered from every attempt, each read as `steps.<id>.outputs.<name>`: list values "
                        + "are concatenated, other values appended.",
                    values: V.scalar
                ).adding(["propertyNames": V.ref("identifier")]),
            ]
        ).adding([
            "oneOf": .array([
                .object(["required": .array([.string("until")])]),
                .object(["required": .array([.string("while")])]),
            ])
        ])
    }
}
