import FlowKit

extension ArgoManifest {
    /// Whether a fanned-out step gets a DAG template of its own: when its `fail-fast` (the
    /// default) or its `concurrency` matter, which the workflow's DAG (`failFast: false`,
    /// `parallelism` = the run's concurrency) cannot express for one step.
    static func fansInOwnDAG(_ forEach: ForEach) -> Bool {
        forEach.failFast || forEach.concurrency != nil
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
        let inner = Self.appending(
            Self.task(
                name: name, template: templateName(step.id), depends: [],
                parameters: parameters.map { (name: $0.name, value: "{{inputs.parameters.\($0.name)}}") } + [item],
                artifacts: artifacts.map { (name: $0.name, data: "{{inputs.parameters.\($0.name)}}") }),
            innerLoop)
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
                            .map([
                                ("name", .string("flow")),
                                (
                                    "valueFrom",
                                    .map([("parameter", .string("{{tasks.\(name).outputs.parameters.flow}}"))])
                                ),
                            ])
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
