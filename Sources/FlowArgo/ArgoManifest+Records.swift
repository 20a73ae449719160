import FlowDSL
import FlowKit
import Foundation

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

    /// What the outcome task reads of each task: its phase. A step with a DAG template of its own
    /// succeeds whatever its items did (see `fannedTask`): its items' phase is that template's
    /// output `status`. A service's daemon task counts too: one that failed or was never ready
    /// fails the run, as in `flow run` (its steps are then Omitted, and the leaf would hide it).
    func outcomeReads() -> [(name: String, value: String)] {
        var reads: [(name: String, value: String)] = []
        for step in workflow.steps {
            let name = names.task(step.id)
            if case .fanned(nil) = shape(of: step) { reads.append((name + "-items", "{{tasks.\(name)-items.status}}")) }
            if let forEach = step.forEach, case .fanned = shape(of: step), Self.fansInOwnDAG(forEach) {
                reads.append((name, "{{tasks.\(name).outputs.parameters.status}}"))
            } else {
                reads.append((name, "{{tasks.\(name).status}}"))
            }
        }
        for service in workflow.services {
            let task = names.service(service.name)
            reads.append((task, "{{tasks.\(task).status}}"))
        }
        return reads
    }

    /// The outcome task and its template (a shell in `image`, which has one).
    func outcomeTaskAndTemplate() -> (task: ManifestNode, template: ManifestNode) {
        let reads = outcomeReads()
        // A `continue-on-error` step's task that failed or errored (its pod lost) does not fail the
        // run, as its failure does not in `flow run`: its phase reaches the script marked as such.
        let ignored = Set(
            workflow.steps.filter(\.continueOnError).flatMap { step -> [String] in
                let name = self.names.task(step.id)
                return [name, name + "-items"]
            })
        let names = reads.map(\.name)
        let depends = names.map { name in
            "("
                + ["Succeeded", "Failed", "Errored", "Skipped", "Omitted", "Daemoned"].map { "\(name).\($0)" }
                .joined(separator: " || ") + ")"
        }
        // `{{tasks.X.status}}` resolves in a task's arguments only: each reaches the template as an
        // input parameter named after the task; each argument of the script is TASK=PHASE.
        let task = Self.task(
            name: Self.outcomeTaskName, template: Self.outcomeTaskName, depends: depends,
            parameters: reads, artifacts: [])
        let script =
            "status=0; for pair in \"$@\"; do case \"${pair#*=}\" in Failed|Error) "
            + "echo \"flow: task ${pair%%=*} ${pair#*=}: the run failed\"; status=1;; esac; done; exit $status"
        var arguments: [ManifestNode] = [ManifestNode.string(script), ManifestNode.string(Self.outcomeTaskName)]
        for name in names {
            let mark = ignored.contains(name) ? "continue-on-error:" : ""
            arguments.append(ManifestNode.string("\(name)=\(mark){{inputs.parameters.\(name)}}"))
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

// What a dependent reads of a need, and what stands for a record that never came.
extension ArgoManifest {
    /// The text a task's output parameter `output` holds when its pod wrote no file for it
    /// (`valueFrom.default`, which Argo's executor saves instead: `workflow/executor/executor.go`
    /// `SaveParameters`): for `flow`, a record of step `step` as failed, which flow reads as
    /// a lost need; for `items`, the one pod (-1) that decides the step from that record.
    static func lostDefault(output: String, step: Step) -> String {
        guard output == "flow" || output == statusOutput else { return "[-1]" }
        return lostRecord(
            step, error: "step '\(step.id)' left no record on Argo: its pod ended before flow wrote \(outputsPath)")
    }

    /// The records file of step `step` as failed with `error`; failure-ignored under
    /// `continue-on-error`, so a lost pod of such a step counts as its failure does in `flow run`.
    static func lostRecord(_ step: Step, error: String) -> String {
        var record: [String: Value] = [
            "status": .string("failed"), "outputs": .object([:]), "error": .string(error),
        ]
        if step.continueOnError { record["failure-ignored"] = .bool(true) }
        return Value.object(["flow-outputs": .number(1), "steps": .object([step.id: .object(record)])]).jsonText
    }

    /// The reference a dependent's input artifact holds for need `need`'s records. A step run
    /// in one pod: that pod's `flow` parameter. A step fanned out over item pods: Argo's list of
    /// the item pods' output maps, `{{tasks.T.outputs.parameters}}`, which Argo sets whenever
    /// the task has children, even when none succeeded (`operator.go`
    /// `processAggregateNodeOutputs`; `{{tasks.T.outputs.parameters.flow}}` is set only when one
    /// did, else the dependent would wait forever: `dag.go` `resolveDependencyReferences`),
    /// wrapped with the step's id so flow reads a missing item, or all of them, as failed. With
    /// a DAG template of its own, the same list is that template's output `flow`.
    func recordsReference(_ need: String) -> String {
        let task = names.task(need)
        guard let step = workflow.steps.first(where: { $0.id == need }) else {
            return "{{tasks.\(task).outputs.parameters.flow}}"
        }
        guard case .fanned = shape(of: step), let forEach = step.forEach else {
            return Self.outputOrLost(task: task, step: step)
        }
        let pods =
            Self.fansInOwnDAG(forEach)
            ? "{{tasks.\(task).outputs.parameters.flow}}" : "{{tasks.\(task).outputs.parameters}}"
        return "{\"flow-aggregate\":\(Value.string(need).jsonText),\"pods\":\(pods)}"
    }

    /// The reference to output `flow` of task `task` (step `step`'s records) that Argo resolves
    /// even when the task ended with no outputs at all (its pod deleted, evicted or never
    /// started): an expression tag whose `?.` and `??` give the lost record instead. A plain
    /// `{{tasks.T.outputs.parameters.flow}}` cannot be resolved then, and Argo requeues the
    /// dependent forever (`dag.go` `resolveDependencyReferences` → `ErrRequeue`); members guarded
    /// by `??` or `?.` are not required identifiers (`util/template/expression_template.go`
    /// `getIdentifiers`, `guardVisitor`), `tasks` is (the scope holds `tasks.T.status`), and
    /// `?.` on a missing member is nil, so `??` gives the default.
    static func outputOrLost(task: String, step: Step, output: String = "flow") -> String {
        // The record as a string literal of Argo's expression language: no `'` (it would end the
        // literal) and no `{{` or `}}` (they would end the tag), JSON allowing a space between braces.
        var text = lostRecord(
            step, error: "step \(step.id) left no record on Argo: its pod was lost before flow wrote \(outputsPath)")
        while text.contains("}}") { text = text.replacingOccurrences(of: "}}", with: "} }") }
        while text.contains("{{") { text = text.replacingOccurrences(of: "{{", with: "{ {") }
        text = text.replacingOccurrences(of: "'", with: "\\u0027")
        return "{{=tasks['\(task)']?.outputs?.parameters?.\(output) ?? '\(text)'}}"
    }

    /// The top-level steps whose records step `step`'s task is given: its needs, then the steps
    /// upstream that its expressions (its children's included) read with `steps.X` without
    /// needing them directly. A step's file holds its own records only (`flow run --outputs-to`),
    /// so a task gets exactly the records it reads, however long the chain above it; a step
    /// inside a group is read from its group's file.
    ///
    /// `item`: what one item's pod of a step fanned out in the run reads once given its item:
    /// neither the needs (the items task decided the step from them) nor what only the step's
    /// `if` and `for-each` read.
    func recordsGiven(to step: Step, item: Bool = false) -> [String] {
        var top: [String: String] = [:]
        func visit(_ inner: Step, under root: String) {
            top[inner.id] = root
            for child in inner.children { visit(child, under: root) }
        }
        for each in workflow.steps { visit(each, under: each.id) }
        let own = Set(top.filter { $0.value == step.id }.keys)
        var given = item ? [] : step.needs
        for id in workflow.stepReads(by: own, decided: item ? step.id : nil) {
            guard let root = top[id], root != step.id, !given.contains(root) else { continue }
            given.append(root)
        }
        return given
    }
}
