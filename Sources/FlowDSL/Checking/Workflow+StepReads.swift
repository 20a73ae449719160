extension Workflow {
    /// The ids of the steps whose records an expression of steps `ids` reads (`steps.X…`), in
    /// file order without repeats: what a task of an exported workflow must be given besides its
    /// needs' records (`flow export argo`). Not the files their `uses` steps call, whose
    /// `steps.X` name the called file's own steps.
    ///
    /// `decided`: a `for-each` step whose `if` and items were decided elsewhere (an exported
    /// workflow's items task): their expressions are left out, so the result is what one item
    /// of it reads once it is given its item.
    package func stepReads(by ids: Set<String>, decided: String? = nil) -> [String] {
        var found: [String] = []
        var seen: Set<String> = []
        for site in ExpressionSite.all(in: self) {
            switch site.scope {
            case .step(let step), .stepResult(let step):
                guard ids.contains(step.id) else { continue }
                if step.id == decided, site.isForEachItems || site.conditionKey == "if" { continue }
            case .workflow, .workflowOutputs:
                continue
            }
            let text = site.text
            var expressions: [Expression] = []
            if let template = text.template, !template.isLiteral {
                expressions = template.expressions.map(\.expression)
            } else if site.conditionKey != nil, let bare = try? Expression.parse(text.text) {
                expressions = [bare]
            }
            for expression in expressions {
                for reference in expression.references where reference.root == "steps" {
                    guard case .key(let id)? = reference.path.first, seen.insert(id).inserted else { continue }
                    found.append(id)
                }
            }
        }
        return found
    }
}
