/// Evaluates a syntax tree against a context. `&&` and `||` short-circuit and return one of
/// their operands, as in GitHub Actions; every other operator and function is strict.
struct Evaluator<Context: EvaluationContext> {
    let context: Context

    func evaluate(_ node: SyntaxNode) throws(EvaluationError) -> Value {
        switch node {
        case .literal(let value):
            return value
        case .root(let name, let span):
            guard let value = context.value(ofRoot: name) else {
                throw EvaluationError(
                    message: "'\(name)' is not available here", offset: span.offset, length: span.length)
            }
            return value
        case .access(let base, let accessors):
            var value = try evaluate(base)
            var readsHeaders = false
            for (position, accessor) in accessors.enumerated() {
                var selector = try selector(accessor)
                if position == 0, case .root(let name, let span) = base, case .string(let key) = selector {
                    if let problem = context.problem(reading: key, ofRoot: name) {
                        throw EvaluationError(
                            message: problem, offset: span.offset, length: accessor.span.end - span.offset)
                    }
                    readsHeaders = name == "result" && (key == "headers" || key == "header_values")
                } else if position == 1, readsHeaders, case .string(let key) = selector {
                    // Header names are stored lower-cased and read in any case, as HTTP compares them.
                    selector = .string(key.lowercased())
                }
                value = Self.read(value, selector)
            }
            return value
        case .call(let name, let arguments, let span):
            return try call(name, arguments, span)
        case .not(let operand):
            return .bool(!(try evaluate(operand).isTruthy))
        case .and(let operands):
            var value = Value.null
            for operand in operands {
                value = try evaluate(operand)
                if !value.isTruthy { return value }
            }
            return value
        case .or(let operands):
            var value = Value.null
            for operand in operands {
                value = try evaluate(operand)
                if value.isTruthy { return value }
            }
            return value
        case .compare(let first, let rest):
            var left = try evaluate(first)
            for (comparison, operand) in rest {
                let right = try evaluate(operand)
                left = .bool(comparison.apply(left, right))
            }
            return left
        }
    }

    /// What an accessor selects: the key of `.name`, the value of `[expression]`.
    func selector(_ accessor: SyntaxNode.Accessor) throws(EvaluationError) -> Value {
        switch accessor {
        case .key(let key, _): return .string(key)
        case .index(let node, _): return try evaluate(node)
        }
    }

    /// A missing key, an index out of range, or an access into a value that has no members
    /// (null, a string, a number) reads as `null`, so optional data can be tested with `if:`.
    private static func read(_ value: Value, _ selector: Value) -> Value {
        switch (value, selector) {
        case (.object(let members), .string(let key)):
            return members[key] ?? .null
        case (.array(let elements), .number(let number)):
            guard number == number.rounded(), number >= 0, number < Double(elements.count) else { return .null }
            return elements[Int(number)]
        default:
            return .null
        }
    }

    private func call(_ name: String, _ arguments: [SyntaxNode], _ span: Span) throws(EvaluationError) -> Value {
        func failure(_ message: String) -> EvaluationError {
            EvaluationError(message: message, offset: span.offset, length: span.length)
        }
        guard let arity = Functions.arity(name) else {
            let hint = Suggestion.closest(to: name, in: Functions.names).map { ", did you mean '\($0)'?" } ?? ""
            throw failure("unknown function '\(name)'\(hint)")
        }
        guard arity.contains(arguments.count) else {
            throw failure("\(name)() takes \(Functions.describe(arity)), got \(arguments.count)")
        }
        if let value = try queryCall(name, arguments, span) { return value }
        if let function = StatusFunction(rawValue: name) {
            guard let answer = context.statusFunction(function) else {
                throw failure("\(name)() is only available in a step's 'if'")
            }
            return .bool(answer)
        }
        if name == Functions.idempotencyKey {
            guard let key = context.idempotencyKey() else {
                throw failure("idempotencyKey() is only available in a step while a workflow runs")
            }
            return .string(key)
        }
        var values: [Value] = []
        values.reserveCapacity(arguments.count)
        for argument in arguments {
            values.append(try evaluate(argument))
        }
        if name == "files" {
            guard let folder = context.filesFolder else {
                throw failure("files() is only available while a workflow runs (and in --dry-run)")
            }
            do {
                return try FileGlob.matches(values[0], in: folder)
            } catch {
                throw failure(error.message)
            }
        }
        do {
            return try Functions.call(name, values)
        } catch {
            throw failure(error.message)
        }
    }
}
