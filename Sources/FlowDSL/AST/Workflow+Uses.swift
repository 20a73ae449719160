/// A step as a run shows it: its id qualified by the `uses` steps that lead to it
/// (`deploy-eu/publish`), with its group and needs qualified the same way.
package struct QualifiedStep: Sendable {
    /// `prefix + step.id`: the id in events, reports and the graph.
    package let id: String
    /// The step as declared in its own file.
    package let step: Step
    /// The enclosing group or `uses` step, qualified; nil at the top level.
    package let parent: String?
    /// The needs, qualified.
    package let needs: [String]
}

extension Workflow {
    /// The workflow the `uses` step `id` (of this file) calls, if it is one.
    package func calledWorkflow(of id: String) -> Workflow? {
        guard let step = step(id), case .uses(let uses) = step.kind else { return nil }
        return called[uses.resolvedPath]
    }

    /// Every step depth first in file order, each `uses` step followed by the steps of the file it
    /// calls (and so on), ids qualified as `parent/child`.
    package var qualifiedSteps: [QualifiedStep] {
        qualifiedSteps { _ in nil }
    }

    /// As `qualifiedSteps`, for a run's records: a `uses` step with `for-each` whose run had
    /// `items(id)` items is followed by the called steps once per item, as `deploy[1]/publish`,
    /// and a group with `for-each` by its children once per item, as `batch[1]/check`.
    package func qualifiedSteps(items: (String) -> Int?) -> [QualifiedStep] {
        var result: [QualifiedStep] = []
        appendQualified(prefix: "", usesParent: nil, items: items, into: &result)
        return result
    }

    private func appendQualified(
        prefix: String, usesParent: String?, items: (String) -> Int?, into result: inout [QualifiedStep]
    ) {
        appendQualified(steps, prefix: prefix, parent: usesParent, items: items, into: &result)
    }

    /// Depth first in file order, as `allSteps`; the children of a group with `for-each` whose run
    /// had `items(id)` items follow it once per item, as `batch[2]/check`.
    private func appendQualified(
        _ steps: [Step], prefix: String, parent: String?, items: (String) -> Int?, into result: inout [QualifiedStep]
    ) {
        for step in steps {
            let id = prefix + step.id
            result.append(QualifiedStep(id: id, step: step, parent: parent, needs: step.needs.map { prefix + $0 }))
            switch step.kind {
            case .group(let group):
                if step.forEach != nil, let count = items(id) {
                    for index in 0..<count {
                        appendQualified(
                            group.children, prefix: "\(id)[\(index)]/", parent: id, items: items, into: &result)
                    }
                } else {
                    appendQualified(group.children, prefix: prefix, parent: id, items: items, into: &result)
                }
            case .uses(let uses):
                guard let called = called[uses.resolvedPath] else { continue }
                if step.forEach != nil, let count = items(id) {
                    for index in 0..<count {
                        called.appendQualified(prefix: "\(id)[\(index)]/", usesParent: id, items: items, into: &result)
                    }
                } else {
                    called.appendQualified(prefix: id + "/", usesParent: id, items: items, into: &result)
                }
            default:
                continue
            }
        }
    }
}
