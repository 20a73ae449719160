extension Workflow {
    /// Every `secrets.NAME` the workflow reads, with where it is read, in file order; the runner
    /// checks them all before anything starts so a missing secret is reported up front.
    package func secretReferences() -> [(name: String, location: SourceLocation)] {
        secretReferences { _ in true }
    }

    /// The `secrets.NAME` read where steps `ids` run (`flow run --only`, an Argo task): the
    /// workflow-level values (`env`, `defaults`, settings), which every step's process computes,
    /// and the sites of those steps; not the files their `uses` steps call (see `calledFiles(by:)`).
    package func secretReferences(readBy ids: Set<String>) -> [(name: String, location: SourceLocation)] {
        secretReferences { site in
            switch site.scope {
            case .workflow: true
            case .workflowOutputs: false
            case .step(let step), .stepResult(let step): ids.contains(step.id)
            }
        }
    }

    /// The files (keys of `called`) that the `uses` steps among `ids` call.
    package func calledFiles(by ids: Set<String>) -> [String] {
        allSteps.compactMap { step in
            guard ids.contains(step.id), case .uses(let uses) = step.kind else { return nil }
            return uses.resolvedPath
        }
    }

    private func secretReferences(where include: (ExpressionSite) -> Bool) -> [(name: String, location: SourceLocation)]
    {
        var found: [(name: String, location: SourceLocation)] = []
        for site in ExpressionSite.all(in: self) where include(site) {
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
