/// Where the parts of a path come from: the text the workflow's author wrote and the values the
/// person running flow gives (`inputs`, `env`, `secrets`), or data from elsewhere (a response, a
/// command's output, an item of a list, the disk). Paths a server can name are confined to the
/// folder the authored part names (see Grammar.md, "Paths").
package enum PathProvenance {
    /// The roots whose values come from the workflow's author or the person running it, never
    /// from a server: inputs, the environment, secrets, service addresses and flow's own values.
    package static let authoredRoots: Set<String> = ["inputs", "env", "secrets", "services", "flow"]

    /// Whether `expression`'s value is the author's: it reads only `authoredRoots` and does not
    /// list the disk (`files()`); `item`, `steps` and `result` are not.
    package static func isAuthored(_ expression: Expression) -> Bool {
        expression.references.allSatisfy { authoredRoots.contains($0.root) }
            && !expression.functionCalls.contains { $0.name == "files" }
    }
}

extension Template {
    /// The value as text (as `evaluate` gives it, interpolated) and the part of it before the first
    /// `${{ }}` that is not authored (see `PathProvenance`): nil when every part is authored.
    package func evaluateWithAuthoredPrefix(
        _ context: some EvaluationContext
    ) throws(EvaluationError) -> (text: String, authoredPrefix: String?) {
        let text = try evaluate(context).interpolated
        guard let first = expressions.firstIndex(where: { !PathProvenance.isAuthored($0.expression) }) else {
            return (text, nil)
        }
        if isSingleExpression { return (text, "") }
        var prefix = ""
        for part in parts {
            switch part {
            case .literal(let literal):
                prefix += literal
            case .expression(let index):
                if index == first { return (text, prefix) }
                do {
                    prefix += try expressions[index].expression.evaluate(context).interpolated
                } catch {
                    throw error.shifted(by: expressions[index].offset)
                }
            }
        }
        return (text, prefix)
    }
}
