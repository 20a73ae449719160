import FlowDSL
import FlowKit

extension ArgoManifest {
    /// The top-level steps whose records each item's pod of step `step` (fanned out over items
    /// counted in the run) is given besides its item: those its item reads (issue 28, defect 5:
    /// with the items' source among them, every pod would receive the whole list). When the
    /// items may hold a secret (their expression reads `secrets` or `env`), the items task
    /// lists them without their values, which Argo would show, and each pod computes its item
    /// from the records the step reads, as the items task did.
    func recordsGiven(toItemsOf step: Step) -> [String] {
        let texts = step.forEach?.items.strings.map(\.text) ?? []
        let mayHoldSecrets = texts.contains { $0.contains("secrets") || $0.contains("env") }
        return recordsGiven(to: step, item: !mayHoldSecrets)
    }
}
