import FlowDSL
import FlowKit

extension ArgoManifest {
    /// A step that reads the outputs or item records of a fanned-out `for-each` step whose items
    /// can fail, and can run after such a failure.
    struct FailedItemsReader {
        /// The fanned-out step.
        let step: String
        /// The step reading its records.
        let reader: String
        /// True when the reader surely runs after a failed item (it needs the step directly and
        /// its `if` calls a status function); false when it may, through a step between them
        /// whose `if` calls one (known only in the run).
        let known: Bool
    }

    /// The steps reading fanned-out steps' records after one of their items failed. Argo keeps
    /// only succeeded children's outputs in an expanded task's aggregate
    /// (`workflow/controller/operator.go` `processAggregateNodeOutputs`, called for a DAG task by
    /// `workflow/controller/dag.go` `executeDAG` and `resolveDependencyReferences`): with records
    /// as parameters, a failed item's record never reaches its readers, which then read its item
    /// and error as lost and, when no item succeeded, no items at all, where `flow run` reads
    /// them (issue 28, defect 9). A `continue-on-error` step's item pods exit 0 whatever their
    /// item did, so Argo keeps their records; a reader without a status function on the way is
    /// skipped by flow once the step failed, and reads nothing.
    func failedItemsReaders() -> [FailedItemsReader] {
        let byId = Dictionary(workflow.steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func statusFunction(_ step: Step) -> Bool {
            guard let text = step.condition?.text else { return false }
            return ["always(", "failure(", "cancelled("].contains { text.contains($0) }
        }
        func ownIds(_ step: Step) -> Set<String> {
            var ids: Set<String> = [step.id]
            for child in step.children { ids.formUnion(ownIds(child)) }
            return ids
        }
        // Who needs each step, so that a walk down the graph visits each edge once.
        var neededBy: [String: [String]] = [:]
        for step in workflow.steps {
            for need in step.needs { neededBy[need, default: []].append(step.id) }
        }
        // The steps that need `id`, directly or not.
        func dependents(of id: String) -> Set<String> {
            var found: Set<String> = []
            var pending = [id]
            while let next = pending.popLast() {
                for step in neededBy[next] ?? [] where found.insert(step).inserted { pending.append(step) }
            }
            return found
        }
        // The steps `id` needs, directly or not, and itself; each reader's worked out once.
        var upstreamByStep: [String: Set<String>] = [:]
        func upstream(of id: String) -> Set<String> {
            if let known = upstreamByStep[id] { return known }
            var found: Set<String> = []
            var pending = [id]
            while let next = pending.popLast() {
                guard found.insert(next).inserted else { continue }
                pending += byId[next]?.needs ?? []
            }
            upstreamByStep[id] = found
            return found
        }
        // What each step reads, worked out once rather than once per fanned-out step.
        let readsByStep = workflow.steps.map { workflow.recordReads(by: ownIds($0)) }
        var readers: [FailedItemsReader] = []
        for fanned in workflow.steps where !fanned.continueOnError {
            guard case .fanned = shape(of: fanned) else { continue }
            let after = dependents(of: fanned.id)
            for (reader, reads) in zip(workflow.steps, readsByStep) where reader.id != fanned.id {
                guard let read = reads[fanned.id], read != RecordRead() else { continue }
                if reader.needs.contains(fanned.id) {
                    // Flow skips a reader whose need failed, unless its `if` calls a status function.
                    if statusFunction(reader) {
                        readers.append(FailedItemsReader(step: fanned.id, reader: reader.id, known: true))
                    }
                } else if after.intersection(upstream(of: reader.id)).contains(where: {
                    byId[$0].map(statusFunction) == true
                }) {
                    readers.append(FailedItemsReader(step: fanned.id, reader: reader.id, known: false))
                }
            }
        }
        return readers
    }

    /// The problem (a reader surely runs after a failed item) or the warnings (one may) for
    /// `--artifact-repository none`, whose records are parameters; nothing otherwise, the readers'
    /// fanned-out steps then saving their items' records as artifacts, failed ones too (see
    /// `recordsByArtifact`).
    func failedItemsCheck(_ readers: [FailedItemsReader]) throws(Problem) -> [String] {
        guard artifactRepository == .none else { return [] }
        let lost =
            "with --artifact-repository none its items' records are parameters, and Argo keeps only succeeded "
            + "item pods' outputs (operator.go processAggregateNodeOutputs), so a failed item's record would be "
            + "lost: its item and error would read as null, unlike flow run"
        if let reader = readers.first(where: \.known) {
            throw Problem(
                message: "step '\(reader.reader)' reads the records of for-each step '\(reader.step)' after its "
                    + "items failed: \(lost); drop --artifact-repository none (its records then go through the "
                    + "artifact repository), or make '\(reader.step)' continue-on-error")
        }
        return readers.map { reader in
            "step '\(reader.reader)' may read the records of for-each step '\(reader.step)' after its items "
                + "failed: \(lost); drop --artifact-repository none to keep them"
        }
    }
}
