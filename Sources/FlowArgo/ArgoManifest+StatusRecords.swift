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
    /// (issue 28, defect 5). A step whose records go by artifact saves it as a second artifact,
    /// so its item pods download that, not its whole record. A step fanned out itself (its pods'
    /// records are aggregated: a second output would double what every dependent is handed)
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

    /// The fanned-out steps whose records the item pods of another fanned-out step are given.
    /// Their records go through the artifact repository (see `recordsByArtifact`) whatever their
    /// count of items: as parameters, each of those pods would carry every item's record of
    /// theirs (Argo's aggregate), so 10,000 pods after a step of 99 items with 1 KB records
    /// would each be handed about 100 KB, near the 128 KiB over which Argo moves a pod's
    /// template to a ConfigMap of its own; as artifacts, each is handed a key.
    func fannedStepsReadByItemPods() -> Set<String> {
        guard artifactRepository != .none else { return [] }
        var read: Set<String> = []
        for step in workflow.steps {
            guard case .fanned(let indices) = shape(of: step) else { continue }
            for need in itemRecordsGiven(to: step, static: indices != nil) {
                guard let needed = workflow.steps.first(where: { $0.id == need }), case .fanned = shape(of: needed)
                else { continue }
                read.insert(need)
            }
        }
        return read
    }

    /// The top-level steps whose records an item pod of fanned-out step `step` is given.
    func itemRecordsGiven(to step: Step, static: Bool) -> [String] {
        `static` ? recordsGiven(to: step) : recordsGiven(toItemsOf: step)
    }

    /// Whether step `id` can write a status record: run in one pod. Saved as the output
    /// parameter `brief`, or as the artifact `brief` when its records go by artifact.
    private func hasStatusRecord(_ id: String) -> Bool {
        guard let step = workflow.steps.first(where: { $0.id == id }), case .single = shape(of: step) else {
            return false
        }
        return true
    }

    /// The arguments that make step `step`'s pod write its status record, if any step reads it.
    func statusArguments(_ step: Step) -> [String] {
        guard let readers = statusReaders[step.id] else { return [] }
        return ["--status-to", Self.statusPath] + readers.flatMap { ["--status-for", $0] }
    }
}
