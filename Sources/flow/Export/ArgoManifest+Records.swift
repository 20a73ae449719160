import FlowKit

extension ArgoManifest {
    /// The folder every step pod writes its records to and reads its needs' from: an `emptyDir`
    /// of its own, because a pod has no such folder otherwise (the image has none, and Argo's
    /// executor makes no folder for an output parameter's path; see Grammar.md).
    static let recordsFolder = "/tmp/flow"

    /// The workflow's `emptyDir` volume for `recordsFolder`, and its mount in a step's container.
    static func recordsVolumeAndMount() -> (volume: ManifestNode, mount: ManifestNode) {
        let name = ManifestNode.string("records")
        let empty: [(String, ManifestNode)] = []
        return (
            ManifestNode.map([("name", name), ("emptyDir", ManifestNode.map(empty))]),
            ManifestNode.map([("name", name), ("mountPath", ManifestNode.string(recordsFolder))])
        )
    }
}

// The Workflow's outcome lives here too: a new file in this module trips a "circular reference"
// in Swift 6.3.1's batch compilation of ManifestNode (an indirect enum of tuples).
extension ArgoManifest {
    /// The task that gives the Workflow `flow run`'s outcome. Without `dag.target`, Argo takes a
    /// DAG's phase from its leaf tasks only (`dag.go` `assessDAGPhase`), so a step that failed
    /// upstream of an `always()` step that succeeded would leave the Workflow Succeeded while
    /// `flow run` exits 1. This task depends on every step task, whatever became of it, reads only
    /// their phases (`{{tasks.X.status}}`, not their records) and fails when one failed or errored:
    /// as the only leaf, it decides the Workflow's phase (see Grammar.md).
    static let outcomeTaskName = "flow-outcome"

    /// The step tasks of `workflow` (an items task included), in order.
    func stepTaskNames() -> [String] {
        workflow.steps.flatMap { step -> [String] in
            let name = names.task(step.id)
            if case .fanned(nil) = shape(of: step) { return [name + "-items", name] }
            return [name]
        }
    }

    /// The outcome task and its template (a shell in `image`, which has one).
    func outcomeTaskAndTemplate() -> (task: ManifestNode, template: ManifestNode) {
        let names = stepTaskNames()
        let depends = names.map { name in
            "("
                + ["Succeeded", "Failed", "Errored", "Skipped", "Omitted"].map { "\(name).\($0)" }
                .joined(separator: " || ") + ")"
        }
        // `{{tasks.X.status}}` resolves in a task's arguments only: each reaches the template as an
        // input parameter named after the task; each argument of the script is TASK=PHASE.
        let task = Self.task(
            name: Self.outcomeTaskName, template: Self.outcomeTaskName, depends: depends,
            parameters: names.map { (name: $0, value: "{{tasks.\($0).status}}") }, artifacts: [])
        let script =
            "status=0; for pair in \"$@\"; do case \"${pair#*=}\" in Failed|Error) "
            + "echo \"flow: step task ${pair%%=*} ${pair#*=}: the run failed\"; status=1;; esac; done; exit $status"
        var arguments: [ManifestNode] = [ManifestNode.string(script), ManifestNode.string(Self.outcomeTaskName)]
        for name in names {
            arguments.append(ManifestNode.string("\(name)={{inputs.parameters.\(name)}}"))
        }
        let inputs = ManifestNode.list(names.map { ManifestNode.map([("name", ManifestNode.string($0))]) })
        let template = ManifestNode.map([
            ("name", ManifestNode.string(Self.outcomeTaskName)),
            ("inputs", ManifestNode.map([("parameters", inputs)])),
            (
                "container",
                ManifestNode.map([
                    ("image", ManifestNode.string(image)),
                    ("command", ManifestNode.list([ManifestNode.string("sh"), ManifestNode.string("-c")])),
                    ("args", ManifestNode.list(arguments)),
                ])
            ),
        ])
        return (task, template)
    }
}
