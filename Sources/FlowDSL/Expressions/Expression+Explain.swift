/// What a failed condition read: the operands of the comparison or call that made it false,
/// each with its actual value, so that `assertion failed: result.json.status == 'down'` can say
/// `(result.json.status was 'up')`, as GitHub Actions and Hurl do.
extension Expression {
    /// One operand as written and the value it had.
    package struct Operand: Sendable, Equatable {
        /// The operand as written (re-printed from the syntax tree).
        package let text: String
        /// Its value.
        package let value: Value
    }

    /// The operands worth showing for a condition that came out false: for `a && b`, those of
    /// the first false part; for `a || b`, those of every part; for a comparison or a function
    /// call, each operand or argument that is not a literal; for a bare reference, itself.
    /// Operands that cannot be evaluated are left out; each text appears once.
    package func operands(_ context: some EvaluationContext) -> [Operand] {
        var found: [Operand] = []
        Explainer(evaluator: Evaluator(context: context)).collect(root, into: &found)
        var seen = Set<String>()
        return found.filter { seen.insert($0.text).inserted }
    }
}

private struct Explainer<Context: EvaluationContext> {
    let evaluator: Evaluator<Context>

    func collect(_ node: SyntaxNode, into found: inout [Expression.Operand]) {
        switch node {
        case .literal:
            break
        case .root, .access:
            show(node, into: &found)
        case .not(let operand):
            collect(operand, into: &found)
        case .and(let operands):
            if let falsy = operands.first(where: { (try? evaluator.evaluate($0).isTruthy) == false }) {
                collect(falsy, into: &found)
            }
        case .or(let operands):
            for operand in operands { collect(operand, into: &found) }
        case .compare(let first, let rest):
            for operand in [first] + rest.map({ $0.1 }) { show(operand, into: &found) }
        case .call(let name, let arguments, _):
            guard !Functions.statusFunctions.contains(name) else { break }
            for argument in arguments { show(argument, into: &found) }
        }
    }

    /// Records `node` and its value unless it is a literal (whose value is what is written).
    private func show(_ node: SyntaxNode, into found: inout [Expression.Operand]) {
        if case .literal = node { return }
        guard let value = try? evaluator.evaluate(node) else { return }
        found.append(Expression.Operand(text: SyntaxPrinter.text(of: node), value: value))
    }
}

/// A syntax tree written back as expression text (spacing normalised).
enum SyntaxPrinter {
    static func text(of node: SyntaxNode) -> String {
        switch node {
        case .literal(let value): return literal(value)
        case .root(let name, _): return name
        case .access(let base, let accessors):
            var text = grouped(base)
            for accessor in accessors {
                switch accessor {
                case .key(let key, _): text += Lexer.isIdentifier(key) ? "." + key : "[" + literal(.string(key)) + "]"
                case .index(let index, _): text += "[" + self.text(of: index) + "]"
                }
            }
            return text
        case .call(let name, let arguments, _):
            return name + "(" + arguments.map { text(of: $0) }.joined(separator: ", ") + ")"
        case .not(let operand): return "!" + grouped(operand)
        case .and(let operands): return operands.map { grouped($0) }.joined(separator: " && ")
        case .or(let operands): return operands.map { grouped($0) }.joined(separator: " || ")
        case .compare(let first, let rest):
            var text = grouped(first)
            for (comparison, operand) in rest { text += " \(symbol(comparison)) " + grouped(operand) }
            return text
        }
    }

    /// A value as an expression literal would write it; strings in single quotes.
    static func literal(_ value: Value) -> String {
        if case .string(let text) = value { return "'" + text.replacing("'", with: "''") + "'" }
        return value.jsonText
    }

    private static func grouped(_ node: SyntaxNode) -> String {
        switch node {
        case .and, .or, .compare: return "(" + text(of: node) + ")"
        default: return text(of: node)
        }
    }

    private static func symbol(_ comparison: ComparisonOperator) -> String {
        switch comparison {
        case .equal: "=="
        case .notEqual: "!="
        case .less: "<"
        case .lessEqual: "<="
        case .greater: ">"
        case .greaterEqual: ">="
        }
    }
}
