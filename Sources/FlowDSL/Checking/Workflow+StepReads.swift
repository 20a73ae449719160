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
        visitStepReferences(by: ids, decided: decided) { reference in
            guard case .key(let id)? = reference.path.first, seen.insert(id).inserted else { return }
            found.append(id)
        }
        return found
    }

    /// What the expressions of steps `ids` (`if`, items, request, command, `outputs`) read of
    /// each step's record, by step id: which outputs, and whether its items. `flow run --only
    /// --status-to` writes only that of a step's record for those steps (an exported workflow's
    /// item pods), besides each step's status.
    package func recordReads(by ids: Set<String>) -> [String: RecordRead] {
        var reads: [String: RecordRead] = [:]
        visitStepReferences(by: ids, decided: nil) { reference in
            guard case .key(let id)? = reference.path.first else { return }
            var read = reads[id] ?? RecordRead()
            let rest = reference.path.dropFirst()
            switch rest.first {
            case .key("outputs"):
                if case .key(let name)? = rest.dropFirst().first {
                    read.outputs?.insert(name)
                } else {
                    read.outputs = nil
                }
            case .key("items"):
                read.items = true
            case .key:
                break
            case .index, .dynamic, nil:
                // The record as a whole (`steps.X`, `toJSON(steps.X)`) or a computed member.
                read.outputs = nil
                read.items = true
            }
            reads[id] = read
        }
        return reads
    }

    /// Hands `body` every `steps…` reference of an expression of steps `ids` (see `stepReads`).
    private func visitStepReferences(by ids: Set<String>, decided: String?, _ body: (Reference) -> Void) {
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
                for reference in expression.references where reference.root == "steps" { body(reference) }
            }
        }
    }
}

/// What expressions read of one step's record besides its status (see `Workflow.recordReads`).
package struct RecordRead: Sendable, Equatable {
    /// The outputs read by name; nil: every one (`steps.X.outputs` as a whole, a computed name).
    package var outputs: Set<String>? = []
    /// Whether `steps.X.items` is read.
    package var items = false

    /// Nothing but the status.
    package init() {}
}
