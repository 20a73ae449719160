import FlowDSL

/// Checks a response's `result` against `expect.headers` and `expect.assert`, failing with the
/// first that does not hold. A failed assertion names each operand's actual value (masked), as
/// GitHub Actions and Hurl do: `assertion failed: result.json.status == 'down' (result.json.status
/// was 'up')`.
enum ExpectationCheck {
    /// How many characters of an operand's value a message shows.
    static let valueLimit = 200

    static func run(
        _ expect: Expectation, result: Value, values: RunValues, start: StepStart<StepResult>, masker: SecretMasker
    ) throws(StepError) {
        guard !expect.assertions.isEmpty || !expect.headers.isEmpty else { return }
        var assertions: [CompiledCondition] = []
        for text in expect.assertions { assertions.append(try CompiledCondition(text)) }
        let scope = values.scope(
            for: expect.headers.map(\.value), expressions: assertions.map(\.expression), records: start.records,
            result: result, locals: start.locals)
        try checkHeaders(expect.headers, result: result, scope: scope, masker: masker)
        for assertion in assertions where !(try assertion.holds(in: scope)) {
            let operands = assertion.expression.operands(scope).map { "\($0.text) was \(shown($0.value))" }
            let actual = operands.isEmpty ? "" : " (" + operands.joined(separator: ", ") + ")"
            // Masked, then escaped: the values came from the server or a command.
            throw StepError(
                Echo.escapingUnprintable(masker("assertion failed: \(assertion.text.text)\(actual)")),
                at: assertion.text.location)
        }
    }

    /// Each expected header is present and one of its values (a header may be sent several
    /// times) matches exactly or as a whole-value regex.
    private static func checkHeaders(
        _ expected: [NamedValue], result: Value, scope: ExpressionScope, masker: SecretMasker
    ) throws(StepError) {
        guard !expected.isEmpty else { return }
        var received: [String: Value] = [:]
        if case .object(let fields) = result, case .object(let headers)? = fields["header_values"] {
            received = headers
        }
        for header in expected {
            let pattern = try header.value.string(in: scope)
            guard case .array(let values)? = received[header.name.lowercased()], let first = values.first else {
                throw StepError(
                    masker(
                        "expected header '\(header.name)' matching '\(pattern)', but the response has no '\(header.name)'"
                    ),
                    at: header.location)
            }
            var matched = false
            for value in values {
                switch HeaderPattern.matches(value.interpolated, pattern) {
                case true?:
                    matched = true
                case false?:
                    continue
                case nil:
                    throw StepError(
                        masker("expect.headers '\(header.name)': '\(pattern)' is not a valid regular expression"),
                        at: header.value.location)
                }
                if matched { break }
            }
            guard !matched else { continue }
            let actual = values.count == 1 ? "it was \(shown(first))" : "its values were \(shown(.array(values)))"
            throw StepError(
                Echo.escapingUnprintable(
                    masker("expected header '\(header.name)' to match '\(pattern)', but \(actual)")),
                at: header.location)
        }
    }

    /// A value as a message shows it: strings quoted, others as JSON, long ones cut.
    static func shown(_ value: Value) -> String {
        var text: String
        if case .string(let string) = value { text = "'" + string + "'" } else { text = value.jsonText }
        if text.count > valueLimit { text = String(text.prefix(valueLimit)) + "… (\(text.count) characters)" }
        return text
    }
}
