extension Workflow {
    /// Every `secrets.NAME` the workflow reads, with where it is read, in file order; the runner
    /// checks them all before anything starts so a missing secret is reported up front.
    public func secretReferences() -> [(name: String, location: SourceLocation)] {
        var found: [(name: String, location: SourceLocation)] = []
        for site in ExpressionSite.all(in: self) {
            let text = site.text
            var expressions: [(Expression, Int)] = []
            if let template = text.template, !template.isLiteral {
                expressions = template.expressions.map { ($0.expression, $0.offset) }
            } else if site.conditionKey != nil, let bare = try? Expression.parse(text.text) {
                expressions = [(bare, 0)]
            }
            for (expression, offset) in expressions {
                for reference in expression.references where reference.root == "secrets" {
                    guard case .key(let name)? = reference.path.first else { continue }
                    found.append((name, text.location(ofOffset: offset + reference.offset)))
                }
            }
        }
        return found
    }
}
