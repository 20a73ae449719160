import FlowDSL
import FlowKit

extension ArgoManifest {
    /// Whether a fanned-out step gets a DAG template of its own: when its `fail-fast` (the
    /// default) or its `concurrency` matter, which the workflow's DAG (`failFast: false`,
    /// `parallelism` = the run's concurrency) cannot express for one step.
    static func fansInOwnDAG(_ forEach: ForEach) -> Bool {
        forEach.failFast || forEach.concurrency != nil
    }

    /// The loop over item indices known when exporting: `withSequence` (`count`, from 0), whose
    /// size does not grow with the items, so 10,000 items are one line of the manifest, not
    /// 10,000; `withItems: [-1]` when there are none (one pod records the step).
    static func staticLoop(_ indices: [Int]) -> (String, ManifestNode) {
        guard indices != [-1] else { return ("withItems", .list([.int(-1)])) }
        return ("withSequence", .map([("count", .string(String(indices.count)))]))
    }

    /// From how many items a fanned-out step gets a warning. With its records as parameters
    /// (`--artifact-repository none`), the list of their records (about 200 bytes or more each)
    /// is written into each dependent's task and pod, whose template Argo moves to a ConfigMap of
    /// its own over 128 KiB (`workflow/controller/workflowpod.go` `createWorkflowPod`,
    /// `common.MaxEnvVarLen`): from about 600 items. Either way Argo keeps one node per item in
    /// the Workflow object, which Kubernetes limits to about 1 MiB; past that Argo compresses the
    /// node status (`workflow/hydrator/hydrator.go` `Dehydrate` → `workflow/packer/packer.go`
    /// `CompressWorkflowIfNeeded`), about 85 bytes per item, and offloads it only when configured to.
    static let largeFanOut = 500

    /// The warning for step `step` fanned out over `count` items (nil: known in the run).
    func fanOutWarning(_ step: Step, count: Int?) -> String? {
        if let count, count < Self.largeFanOut { return nil }
        let items = count.map { "\($0) items" } ?? "items counted only in the run"
        let base = "step '\(step.id)' fans out over \(items): "
        guard recordsByArtifact(step) else {
            return base
                + "Argo hands its dependents the list of every item pod's record (a few hundred bytes each) as one "
                + "parameter, which their pods' templates carry (Argo moves a template over 128 KiB to a ConfigMap "
                + "per pod), and keeps every item's node in the Workflow's status, which Kubernetes limits to about "
                + "1 MiB per object; from about \(Self.largeFanOut) items keep the step's outputs small, pass records "
                + "as artifacts (--artifact-repository), or run the for-each inside one task (a group, or "
                + "parallel: any), see Grammar.md"
        }
        return base
            + "its items' records go through the artifact repository, so no pod's template nears the 128 KiB over "
            + "which Argo moves it to a ConfigMap; Argo keeps one node per item in the Workflow's status (about 85 "
            + "bytes each once compressed), under Kubernetes' limit of about 1 MiB per object up to about 12,000 "
            + "items; beyond, configure Argo's node status offloading, see Grammar.md"
    }

    /// The items in flight at once: the step's `concurrency`, capped by the run's, as flow caps it.
    func itemParallelism(_ forEach: ForEach) -> Int {
        min(forEach.concurrency ?? workflow.concurrency, workflow.concurrency)
    }

    /// The task that runs step `step` once per item (`loop`: `withItems` or `withParam`), and the
    /// templates that adds besides the item's container template.
    ///
    /// Where `fansInOwnDAG` holds, the task runs a DAG template `each-ID` of one task, the fanned
    /// one, with `parallelism` = the step's concurrency and `failFast` = its `fail-fast` (Argo then
    /// starts no more items after one failed). What the fanned task reads from other tasks (needs'
    /// records, service addresses, the items) reaches it as the DAG template's input parameters,
    /// and its items' records leave as the DAG's output parameter `flow` (the JSON list of the
    /// items' values, as an expanded task gives it), so dependents read it as before.
    func fannedTask(
        name: String, step: Step, depends: [String], parameters: [(name: String, value: String)],
        artifacts: [NeedArtifact], loop: (String, ManifestNode)
    ) -> (task: ManifestNode, templates: [ManifestNode]) {
        var item = [(name: "item", value: "{{item}}")]
        // The index that names an item's records in the artifact repository: the item itself over
        // a sequence, the entry's `index` over the items task's list (Argo's `{{item.KEY}}` of a
        // map item, `operator.go` `processItem`).
        if recordsByArtifact(step) {
            item.append((name: "index", value: loop.0 == "withParam" ? "{{item.index}}" : "{{item}}"))
        }
        guard let forEach = step.forEach, Self.fansInOwnDAG(forEach) else {
            let task = Self.task(
                name: name, template: templateName(step.id), depends: depends, parameters: parameters + item,
                artifacts: artifacts)
            return (Self.appending(task, loop), [])
        }
        // Raw records pass as the DAG template's input parameters, artifacts other tasks saved as
        // its input artifacts (optional, as in the pod's template); key-only ones need nothing.
        var passed = parameters
        var rawArtifacts: [NeedArtifact] = []
        var fromArtifacts: [NeedArtifact] = []
        for artifact in artifacts {
            switch artifact.source {
            case .raw(let data):
                passed.append((name: artifact.name, value: data))
                rawArtifacts.append(artifact)
            case .from: fromArtifacts.append(artifact)
            case .key: break
            }
        }
        var innerLoop = loop
        if case .string(let source) = loop.1, loop.0 == "withParam" {
            passed.append((name: "items", value: source))
            innerLoop = ("withParam", .string("{{inputs.parameters.items}}"))
        }
        // `continueOn`: a failed item does not fail this DAG, since a failed DAG sets no outputs
        // (`dag.go` `executeDAG` returns before them) and a dependent reading them would wait
        // forever (`resolveDependencyReferences`); the step's failure reaches the records (flow
        // reads a missing item as failed) and the output `status`, which `flow-outcome` reads.
        let inner = Self.appending(
            Self.appending(
                Self.task(
                    name: name, template: templateName(step.id), depends: [],
                    parameters: parameters.map { (name: $0.name, value: "{{inputs.parameters.\($0.name)}}") }
                        + item,
                    artifacts: rawArtifacts.map {
                        NeedArtifact(name: $0.name, source: .raw("{{inputs.parameters.\($0.name)}}"), path: $0.path)
                    }
                        + fromArtifacts.map {
                            NeedArtifact(name: $0.name, source: .from("{{inputs.artifacts.\($0.name)}}"), path: $0.path)
                        }),
                innerLoop),
            ("continueOn", .map([("failed", .bool(true)), ("error", .bool(true))])))
        let dagName = "each-" + name
        var entries: [(String, ManifestNode)] = [("name", .string(dagName))]
        var inputs: [(String, ManifestNode)] = []
        if !passed.isEmpty {
            inputs.append(("parameters", .list(passed.map { .map([("name", .string($0.name))]) })))
        }
        if !fromArtifacts.isEmpty {
            inputs.append(
                (
                    "artifacts",
                    .list(fromArtifacts.map { .map([("name", .string($0.name)), ("optional", .bool(true))]) })
                ))
        }
        if !inputs.isEmpty { entries.append(("inputs", .map(inputs))) }
        // With records as artifacts the items save them under one key (see `itemRecordsFolder`),
        // and the template has no `flow` output.
        var outputs: [ManifestNode] = []
        if !recordsByArtifact(step) {
            outputs.append(
                // Argo's list of the item pods' outputs (see `recordsReference`), set whenever the
                // task has children; the default covers a task with none.
                .map([
                    ("name", .string("flow")),
                    (
                        "valueFrom",
                        .map([
                            ("parameter", .string("{{tasks.\(name).outputs.parameters}}")),
                            ("default", .string("[]")),
                        ])
                    ),
                ]))
        }
        entries += [
            (
                "outputs",
                .map([
                    (
                        "parameters",
                        .list(
                            outputs + [
                                // The default is what a dependent reads when this template's task was
                                // Skipped or Omitted: without one the output is an "absent optional"
                                // and a task reading it errors (`scope.go` `addSkippedNodeOutputsToScope`).
                                .map([
                                    ("name", .string("status")),
                                    (
                                        "valueFrom",
                                        .map([
                                            ("parameter", .string("{{tasks.\(name).status}}")),
                                            ("default", .string("Skipped")),
                                        ])
                                    ),
                                ])
                            ])
                    )
                ])
            ),
            ("parallelism", .int(itemParallelism(forEach))),
            ("dag", .map([("failFast", .bool(forEach.failFast)), ("tasks", .list([inner]))])),
        ]
        let outer = Self.task(
            name: name, template: dagName, depends: depends, parameters: passed, artifacts: fromArtifacts)
        return (outer, [.map(entries)])
    }
}
