import FlowDSL
import FlowKit

extension ArgoManifest {
    /// The secrets step `step`'s pod is given: those it (with its children and the files its
    /// `uses` steps call) and the workflow-level values read, sorted; least privilege, as
    /// `flow run --only` checks only those (see `WorkflowRun.secretReferences`).
    func secretNames(for step: Step) -> [String] {
        var ids: Set<String> = []
        func collect(_ step: Step) {
            ids.insert(step.id)
            step.children.forEach(collect)
        }
        collect(step)
        func all(_ workflow: Workflow) -> [String] {
            workflow.secretReferences().map(\.name) + workflow.called.values.flatMap(all)
        }
        let names =
            workflow.secretReferences(readBy: ids).map(\.name)
            + workflow.calledFiles(by: ids).compactMap { workflow.called[$0] }.flatMap(all)
        return Array(Set(names)).sorted()
    }
}
