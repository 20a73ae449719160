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

    /// Whether a fanned-out step's items can make Argo's list of their records too large: that
    /// list (`{{tasks.X.outputs.parameters}}`, one record of about 200 bytes or more per item)
    /// is written into each dependent's task and pod, whose template Argo moves to a ConfigMap
    /// of its own when over 128 KiB (`workflow/controller/workflowpod.go` `createWorkflowPod`,
    /// `common.MaxEnvVarLen`): from about 600 items; and every item's node with its output goes
    /// into the Workflow's status, under Kubernetes' object limit of about 1 MiB. A warning from
    /// `largeFanOut` items on, or when the count is known only in the run.
    static let largeFanOut = 500

    /// The warning for step `step` fanned out over `count` items (nil: known in the run).
    static func fanOutWarning(_ step: Step, count: Int?) -> String? {
        if let count, count < largeFanOut { return nil }
        let items = count.map { "\($0) items" } ?? "items counted only in the run"
        return
            "step '\(step.id)' fans out over \(items): Argo hands its dependents the list of every item pod's "
            + "record (a few hundred bytes each) as one parameter, which their pods' templates carry (Argo moves "
            + "a template over 128 KiB to a ConfigMap per pod), and keeps every item's node in the Workflow's "
            + "status, which Kubernetes limits to about 1 MiB per object (Argo compresses or offloads the node "
            + "status only when configured to); from about \(largeFanOut) items keep the step's outputs small, or "
            + "run the for-each inside one task (a group, or parallel: any), see Grammar.md"
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
        artifacts: [(name: String, data: String)], loop: (String, ManifestNode)
    ) -> (task: ManifestNode, templates: [ManifestNode]) {
        let item = (name: "item", value: "{{item}}")
        guard let forEach = step.forEach, Self.fansInOwnDAG(forEach) else {
            let task = Self.task(
                name: name, template: templateName(step.id), depends: depends, parameters: parameters + [item],
                artifacts: artifacts)
            return (Self.appending(task, loop), [])
        }
        var passed = parameters + artifacts.map { (name: $0.name, value: $0.data) }
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
                        + [item],
                    artifacts: artifacts.map { (name: $0.name, data: "{{inputs.parameters.\($0.name)}}") }),
                innerLoop),
            ("continueOn", .map([("failed", .bool(true)), ("error", .bool(true))])))
        let dagName = "each-" + name
        var entries: [(String, ManifestNode)] = [("name", .string(dagName))]
        if !passed.isEmpty {
            entries.append(("inputs", .map([("parameters", .list(passed.map { .map([("name", .string($0.name))]) }))])))
        }
        entries += [
            (
                "outputs",
                .map([
                    (
                        "parameters",
                        .list([
                            // Argo's list of the item pods' outputs (see `recordsReference`), set
                            // whenever the task has children; the default covers a task with none.
                            .map([
                                ("name", .string("flow")),
                                (
                                    "valueFrom",
                                    .map([
                                        ("parameter", .string("{{tasks.\(name).outputs.parameters}}")),
                                        ("default", .string("[]")),
                                    ])
                                ),
                            ]),
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
                            ]),
                        ])
                    )
                ])
            ),
            ("parallelism", .int(itemParallelism(forEach))),
            ("dag", .map([("failFast", .bool(forEach.failFast)), ("tasks", .list([inner]))])),
        ]
        let outer = Self.task(name: name, template: dagName, depends: depends, parameters: passed, artifacts: [])
        return (outer, [.map(entries)])
    }
}
