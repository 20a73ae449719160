import FlowDSL
import FlowKit

/// Where records that can grow past Argo's limits go (`--artifact-repository`, see Grammar.md).
enum ArgoArtifactRepository: Equatable {
    /// Argo's default: no `artifactRepositoryRef`, so the namespace's `artifact-repositories`
    /// ConfigMap (its default key) or the controller's `artifactRepository` (Argo's
    /// `docs/artifact-repository-ref.md`).
    case standard
    /// `spec.artifactRepositoryRef` naming a ConfigMap and, optionally, its key.
    case reference(configMap: String, key: String?)
    /// No artifacts: every record stays an output parameter, whatever its size.
    case none

    /// `--artifact-repository` as given: `default`, `none`, `CONFIGMAP` or `CONFIGMAP:KEY`.
    init(argument: String) throws(ArgoManifest.Problem) {
        switch argument {
        case "default": self = .standard
        case "none": self = .none
        default:
            let parts = argument.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let valid = parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_" }
            }
            guard valid else {
                throw ArgoManifest.Problem(
                    message: "--artifact-repository \(argument): expected default, none, CONFIGMAP or CONFIGMAP:KEY")
            }
            self = .reference(configMap: parts[0], key: parts.count > 1 ? parts[1] : nil)
        }
    }
}

/// An input artifact of a step's pod and what its task passes for it.
struct NeedArtifact {
    enum Source {
        /// A `raw` artifact holding this text (the records, or a pointer to them).
        case raw(String)
        /// An artifact another task saved: `from: "{{tasks.X.outputs.artifacts.records}}"`,
        /// `optional: true` (Argo leaves it out when X saved none: `dag.go`
        /// `resolveDependencyReferences`).
        case from(String)
        /// A key-only artifact the pod's template names itself (a folder of item records).
        case key(String)
    }
    let name: String
    let source: Source
    let path: String

    /// The task's argument for it; nil for a key-only artifact, which the template names.
    var argument: ManifestNode? {
        switch source {
        case .raw(let data): .map([("name", .string(name)), ("raw", .map([("data", .string(data))]))])
        case .from(let reference):
            .map([("name", .string(name)), ("from", .string(reference)), ("optional", .bool(true))])
        case .key: nil
        }
    }

    /// The template's input artifact. Those not raw are `optional: true`: Argo's executor then
    /// skips one that was not supplied or whose key holds nothing (`workflow/executor/executor.go`
    /// `loadArtifact`), and flow reads the missing records as a lost need (see
    /// `StepRecordsFile.resolvingArtifacts`).
    var input: ManifestNode {
        var entries: [(String, ManifestNode)] = [("name", .string(name)), ("path", .string(path))]
        switch source {
        case .raw: break
        case .from: entries.append(("optional", .bool(true)))
        case .key(let key):
            entries.append(("optional", .bool(true)))
            entries.append(("s3", .map([("key", .string(key))])))
        }
        return .map(entries)
    }
}

extension ArgoManifest {
    /// A fanned-out step of this many items or more (or of items counted only in the run), and
    /// a step running a `for-each` that large inside its one pod, pass their records as
    /// artifacts: from about 100 items the list of item records (a few hundred bytes each) can
    /// pass 32 KiB, a tenth of what a pod's template may hold before Argo offloads it (128 KiB),
    /// and it grows without bound with the items.
    static let artifactItems = 100

    /// The output artifact holding a step's records.
    static let recordsArtifact = "records"

    /// Whether step `step`'s records go through the artifact repository instead of parameters.
    func recordsByArtifact(_ step: Step) -> Bool {
        guard artifactRepository != .none else { return false }
        if readByItemPods.contains(step.id) { return true }
        // A failed item's pod saves its record as an artifact too, where Argo's aggregate of
        // parameters would drop it (see `failedItemsReaders`).
        if readAfterFailedItems.contains(step.id) { return true }
        func large(_ inner: Step) -> Bool {
            if let forEach = inner.forEach {
                let readsFiles = forEach.items.strings.contains { $0.text.contains("files(") }
                guard forEach.itemsAreStatic, !readsFiles,
                    let items = DryRunPlan(workflow: workflow, inputs: inputValues, concurrency: 1).knownItems(forEach),
                    items.count < Self.artifactItems
                else { return true }
            }
            return inner.children.contains(where: large)
        }
        return large(step)
    }

    /// The key under which each item pod of fanned-out step `step` saves its records: one folder
    /// per step and Workflow, one file per item (its input parameter `index`). Argo aggregates
    /// no artifacts of an expanded task's children (`operator.go` `processAggregateNodeOutputs`
    /// lists parameters and results only), so a dependent reads the folder as one artifact (a
    /// key that is no file is loaded as a directory: `workflow/artifacts/s3/s3.go`
    /// `loadS3Artifact`).
    func itemRecordsFolder(_ step: Step) -> String {
        "{{workflow.name}}/flow-records/\(names.task(step.id))"
    }

    /// The output artifact of a pod writing step `step`'s records: `records` from the records
    /// file, unarchived (`archive: none`), `optional: true` (a pod that ended before flow wrote
    /// it saves none, which dependents read as a lost need; a missing non-optional artifact
    /// would turn a failed step's node into an error: `workflow/executor/executor.go`
    /// `saveArtifact`). An item pod names its key (a key-only artifact: Argo takes the bucket
    /// and the storage kind from the repository, `workflow_types.go` `ArtifactLocation.Relocate`
    /// called by `executor.go` `newDriverArt`, so the `s3` only carries the key); a step's own
    /// pod leaves the key to the repository's `keyFormat`.
    func recordsOutputArtifact(_ step: Step, perItem: Bool) -> ManifestNode {
        var entries: [(String, ManifestNode)] = [
            ("name", .string(Self.recordsArtifact)), ("path", .string(Self.outputsPath)), ("optional", .bool(true)),
            ("archive", .map([("none", .map([]))])),
        ]
        if perItem {
            entries.append(
                ("s3", .map([("key", .string(itemRecordsFolder(step) + "/{{inputs.parameters.index}}.json"))])))
        }
        return .map(entries)
    }

    /// The output artifact `brief` of a step's pod whose records go by artifact and whose status
    /// record item pods read (`flow run --status-to`, see `itemStatusReaders`): a few hundred
    /// bytes each pod downloads instead of the whole record. Optional and unarchived, as
    /// `records` (see `recordsOutputArtifact`).
    static func statusOutputArtifact() -> ManifestNode {
        .map([
            ("name", .string(statusOutput)), ("path", .string(statusPath)), ("optional", .bool(true)),
            ("archive", .map([("none", .map([]))])),
        ])
    }

    /// The input artifacts that carry the records of need `need`, fanned out or not, when they
    /// go through the artifact repository: a raw pointer file flow reads at `path`, and the
    /// records it points at beside it. `status`: an item pod's, given the need's status record
    /// (its artifact `brief`) instead of its whole record.
    func artifactNeed(_ step: Step, path: String, status: Bool = false) -> [NeedArtifact] {
        let task = names.task(step.id)
        let pointer: Value
        let records: NeedArtifact
        if case .fanned = shape(of: step) {
            let folder = "\(Self.needsFolder)/\(task).d"
            // Paths beside the pointer file, relative to its folder.
            pointer = .object(["flow-aggregate": .string(step.id), "pods-folder": .string("\(task).d")])
            records = NeedArtifact(name: "need-\(task)-pods", source: .key(itemRecordsFolder(step)), path: folder)
        } else {
            let own = status ? "\(task).status.json" : "\(task).record.json"
            let file = "\(Self.needsFolder)/\(own)"
            // (JSON text never holds `{{`, which would open a tag in the raw artifact's text.)
            let lost = Self.lostRecord(
                step,
                error: "step \(step.id) left no record on Argo: its pod was lost before flow wrote \(Self.outputsPath)")
            pointer = .object([
                "flow-artifact": .string(own), "lost": (try? Value(jsonText: lost)) ?? .null,
            ])
            let output = status ? Self.statusOutput : Self.recordsArtifact
            records = NeedArtifact(
                name: "need-\(task)-\(status ? "brief" : "record")",
                source: .from("{{tasks.\(task).outputs.artifacts.\(output)}}"), path: file)
        }
        return [NeedArtifact(name: "need-\(task)", source: .raw(pointer.jsonText), path: path), records]
    }

    /// `spec.artifactRepositoryRef`, for `--artifact-repository CONFIGMAP[:KEY]`.
    var artifactRepositoryRef: ManifestNode? {
        guard case .reference(let configMap, let key) = artifactRepository else { return nil }
        var entries: [(String, ManifestNode)] = [("configMap", .string(configMap))]
        if let key { entries.append(("key", .string(key))) }
        return .map(entries)
    }

    /// `spec.artifactGC` when some step saves its records as artifacts: `strategy` from
    /// `--artifact-gc` (default `OnWorkflowDeletion`), so the records leave the bucket with the
    /// Workflow instead of staying forever (Argo's default is `Never`: `workflow_types.go`
    /// `GetArtifactGCStrategy`; the controller deletes the output artifacts of pod nodes whose
    /// strategy is ready, `workflow/controller/artifact_gc.go` `garbageCollectArtifacts`,
    /// `findArtifactsToGC`). Written even for `Never`, which overrides a default the controller's
    /// `workflowDefaults` may set.
    var artifactGCNode: ManifestNode? {
        guard workflow.steps.contains(where: recordsByArtifact) else { return nil }
        return .map([("strategy", .string(artifactGC.rawValue))])
    }

    /// The warning when the export itself chose `OnWorkflowDeletion` (no `--artifact-gc`, no
    /// `spec.artifactGC` in the overlay) for records saved as artifacts: Argo deletes them in
    /// pods of its own run under the Workflow's service account, which needs the artifact-GC
    /// permissions (`list`, `watch` on `workflowartifactgctasks`, `patch` on their `status`:
    /// Argo's `docs/walk-through/artifacts.md`, "Artifact Garbage Collection"); without them the
    /// deleted Workflow stays on its finalizer `workflows.argoproj.io/artifact-gc`.
    func artifactGCWarning() -> String? {
        guard !artifactGCChosen, overlay.spec?["artifactGC"] == nil, artifactGCNode != nil else { return nil }
        return "records saved as artifacts are deleted with the Workflow (spec.artifactGC.strategy: "
            + "OnWorkflowDeletion, the export's default): Argo deletes them in pods run under the Workflow's "
            + "service account, which needs the artifact-GC permissions (list and watch workflowartifactgctasks, "
            + "patch workflowartifactgctasks/status: Argo's docs/walk-through/artifacts.md, \"Artifact Garbage "
            + "Collection\"), or a deleted Workflow stays on its finalizer workflows.argoproj.io/artifact-gc; grant "
            + "them, or choose with --artifact-gc OnWorkflowCompletion|Never or the overlay's spec.artifactGC"
    }

    /// The warning naming the steps whose records go through Argo's default artifact repository,
    /// each with its reason: records that can pass Argo's size limits, or a `for-each`'s records
    /// read after its items failed (which parameters would lose, so `none` is no way out for them).
    func artifactWarning() -> String? {
        let steps = workflow.steps.filter(recordsByArtifact).map(\.id)
        guard !steps.isEmpty, artifactRepository == .standard else { return nil }
        func named(_ ids: [String]) -> String {
            "step\(ids.count == 1 ? "" : "s") " + ids.map { "'\($0)'" }.joined(separator: ", ")
        }
        let afterFailures = steps.filter { readAfterFailedItems.contains($0) }
        let large = steps.filter { !readAfterFailedItems.contains($0) }
        var reasons: [String] = []
        if !large.isEmpty { reasons.append("the records of \(named(large)) can pass Argo's size limits") }
        if !afterFailures.isEmpty {
            reasons.append(
                "the records of \(named(afterFailures)) are read after items failed, whose records Argo keeps "
                    + "in no task's aggregate of parameters")
        }
        let keep = afterFailures.isEmpty ? ", or keep them in parameters with --artifact-repository none" : ""
        return reasons.joined(separator: "; ")
            + (reasons.count == 1 ? " and go" : "; they go")
            + " through the namespace's default artifact repository as artifacts: "
            + "configure one, name another with --artifact-repository CONFIGMAP[:KEY]\(keep) (see Grammar.md)"
    }
}
