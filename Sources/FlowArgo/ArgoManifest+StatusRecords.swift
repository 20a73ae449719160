import FlowDSL
import FlowKit

extension ArgoManifest {
    /// Where a step's pod writes its status record (`flow run --status-to`), which the item pods
    /// of a fanned-out step are given instead of its whole record.
    static let statusPath = "/tmp/flow/status.json"

    /// The output parameter holding it.
    static let statusOutput = "brief"

    /// For each top-level step run in one pod whose records item pods read, those fanned-out
    /// steps, in file order: its pod also writes a status record keeping its status and only what
    /// they read (`--status-to`, `--status-for`), and their item pods are given that, not its
    /// whole record. Each item pod decides the step's `if` and its needs' states itself (over a
    /// sequence) or reads what its item reads (over the items task's list); given the whole
    /// record, every one of thousands of pods would carry a large output it does not read
    /// (issue 28, defect 5). A step whose records go by artifact, or fanned out itself (its pods'
    /// records are aggregated: a second output would double what every dependent is handed),
    /// keeps its whole record.
    func itemStatusReaders() -> [String: [String]] {
        var readers: [String: [String]] = [:]
        for step in workflow.steps {
            guard case .fanned(let indices) = shape(of: step) else { continue }
            for need in itemRecordsGiven(to: step, static: indices != nil) where hasStatusRecord(need) {
                readers[need, default: []].append(step.id)
            }
        }
        return readers
    }

    /// The top-level steps whose records an item pod of fanned-out step `step` is given.
    func itemRecordsGiven(to step: Step, static: Bool) -> [String] {
        `static` ? recordsGiven(to: step) : recordsGiven(toItemsOf: step)
    }

    /// Whether step `id` can write a status record: run in one pod, its record a parameter.
    private func hasStatusRecord(_ id: String) -> Bool {
        guard let step = workflow.steps.first(where: { $0.id == id }), case .single = shape(of: step) else {
            return false
        }
        return !recordsByArtifact(step)
    }

    /// The arguments that make step `step`'s pod write its status record, if any step reads it.
    func statusArguments(_ step: Step) -> [String] {
        guard let readers = statusReaders[step.id] else { return [] }
        return ["--status-to", Self.statusPath] + readers.flatMap { ["--status-for", $0] }
    }
}
