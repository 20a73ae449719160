// The query functions the evaluator answers itself: `exists` reads its argument's syntax (to tell
// a key holding `null` from a missing one), and `daysBeforeNow`/`daysAfterNow` read the clock
// from the context.

extension Evaluator {
    /// The value of `exists`, `daysBeforeNow` or `daysAfterNow`; `nil` for any other function.
    func queryCall(_ name: String, _ arguments: [SyntaxNode], _ span: Span) throws(EvaluationError) -> Value? {
        func failure(_ message: String) -> EvaluationError {
            EvaluationError(message: message, offset: span.offset, length: span.length)
        }
        switch name {
        case "exists":
            return .bool(try exists(arguments[0]))
        case "daysBeforeNow", "daysAfterNow":
            let date = try evaluate(arguments[0])
            guard let now = context.currentTime() else {
                throw failure("\(name)() is only available while a workflow runs")
            }
            do {
                return try Functions.days(name, date, now: now)
            } catch {
                throw failure(error.message)
            }
        default:
            return nil
        }
    }

    /// `exists(a.b.c)`: whether the object `a.b` has the key `c` (or the array an index), even
    /// when it holds `null`; `exists(expression)` of anything else: whether it is not `null`.
    private func exists(_ node: SyntaxNode) throws(EvaluationError) -> Bool {
        guard case .access(let base, let accessors) = node, let last = accessors.last else {
            return try evaluate(node) != .null
        }
        let container = try evaluate(accessors.count == 1 ? base : .access(base, Array(accessors.dropLast())))
        var selector = try selector(last)
        if accessors.count == 2, case .root("result", _) = base, case .key(let field, _) = accessors[0],
            field == "headers" || field == "header_values", case .string(let key) = selector
        {
            // Header names are stored lower-cased and read in any case, as the evaluator reads them.
            selector = .string(key.lowercased())
        }
        switch (container, selector) {
        case (.object(let members), .string(let key)):
            return members[key] != nil
        case (.array(let elements), .number(let number)):
            return number == number.rounded() && number >= 0 && number < Double(elements.count)
        default:
            return false
        }
    }
}
