import FlowDSL
import FlowKit
import FlowTasks
import Foundation

/// Builds the Argo `Workflow` of a checked workflow (`flow export argo`); the mapping and its
/// limits are documented under "Running on Argo Workflows" in Grammar.md.
///
/// One DAG task per top-level step runs `flow run /flow/FILE --only ID` in the image; each task
/// writes its records (`--outputs-to`) to an output parameter, which its dependents receive as
/// raw input artifacts (`--outputs-from`), so `if`, `steps.X` and status functions see what the
/// whole run would show. Services become daemon tasks that every step task waits for.
struct ArgoManifest {
    let workflow: Workflow
    /// The workflow file's path as given (its base name is the file in the ConfigMap).
    let file: String
    let image: String
    let namespace: String?
    /// `--input` values: the parameters' values (otherwise the inputs' defaults).
    let inputs: [String: String]
    /// The ConfigMap holding the workflow file (and the files its `uses` steps call).
    let configMap: String
    /// The Kubernetes Secret holding the secrets, one key per `secrets.NAME`.
    let secretName: String
    /// The port of the first service task (the next ones count up).
    let servicePort: Int
    /// The steps' and services' task names (see `ArgoNames`).
    var names = ArgoNames()
    /// `--overlay`: what the user sets besides the mapping (see `ArgoOverlay`).
    var overlay = ArgoOverlay()
    /// `--kind` and `--schedule` (see `finishing`).
    var kind = Kind.workflow
    var schedules: [String] = []
    /// `--active-deadline`: the Workflow's `activeDeadlineSeconds` (0: none; nil: computed, see
    /// `deadlineBackstop`).
    var activeDeadline: Int?
    /// `--artifact-repository`: where records that can pass Argo's limits go (see
    /// `recordsByArtifact`).
    var artifactRepository = ArgoArtifactRepository.standard
    /// `--artifact-gc`: when Argo deletes the records saved as artifacts (see `artifactGCNode`).
    var artifactGC = ArgoArtifactGC.onWorkflowDeletion
    /// Whether `--artifact-gc` was given (no warning about the default's permissions then).
    var artifactGCChosen = false
    /// The fanned-out steps whose item pods read each step's status record (see
    /// `itemStatusReaders`), set by `build`.
    var statusReaders: [String: [String]] = [:]
    /// The fanned-out steps whose records item pods read (see `fannedStepsReadByItemPods`), set
    /// by `build`.
    var readByItemPods: Set<String> = []
    /// The fanned-out steps whose records a step reads after their items failed (see
    /// `failedItemsReaders`), set by `build`.
    var readAfterFailedItems: Set<String> = []

    /// Where the workflow file is mounted in every pod.
    static let mountPath = "/flow"
    /// Where a task writes its records, and reads its needs'.
    static let outputsPath = "/tmp/flow/outputs.json"
    static let needsFolder = "/tmp/flow/needs"
    /// Where an items task writes the item indices.
    static let itemsPath = "/tmp/flow/items.json"

    /// The `--input` values and the defaults, as a run would read them (for static items).
    var inputValues: [String: InputValue] {
        var values: [String: InputValue] = [:]
        for input in workflow.inputs {
            if let text = inputs[input.name] {
                switch input.kind {
                case .number: values[input.name] = Double(text).map(InputValue.number) ?? .string(text)
                case .boolean: values[input.name] = .boolean(text == "true")
                case .string, .file: values[input.name] = .string(text)
                }
            } else if let value = input.defaultValue {
                values[input.name] = value
            }
        }
        return values
    }

    /// Something the manifest cannot express exactly: printed as a warning (see Grammar.md).
    struct Problem: Error {
        let message: String
        /// Diagnostics already rendered with their places (`file:line:col`), shown as they are
        /// instead of `message`.
        var diagnostics: String?
    }

    /// The manifest and the warnings about what maps only approximately; a problem when
    /// something cannot be exported at all.
    func build() throws(Problem) -> (manifest: ManifestNode, warnings: [String]) {
        var manifest = self
        let readers = failedItemsReaders()
        let failedItemsWarnings = try failedItemsCheck(readers)
        manifest.readAfterFailedItems = Set(readers.map(\.step))
        manifest.readByItemPods = fannedStepsReadByItemPods()
        manifest.statusReaders = manifest.itemStatusReaders()
        let built = try manifest.assemble()
        return (built.manifest, built.warnings + failedItemsWarnings)
    }

    private func assemble() throws(Problem) -> (manifest: ManifestNode, warnings: [String]) {
        var warnings: [String] = names.warnings + retryWarnings() + fileWarnings()
        try checkFiles()
        // The workflow file's path under /flow (its folder's layout kept, see `configMapFiles`).
        let fileName = configMapFiles[0].path
        let serviceTemplates = try services(warnings: &warnings)
        let statusRegion = Self.statusRegion(workflow)
        var tasks: [ManifestNode] = serviceTemplates.map { service in
            var entries: [(String, ManifestNode)] = [
                ("name", .string(service.task)), ("template", .string(service.task)),
            ]
            if !service.reads.isEmpty {
                entries.append(("depends", .string(service.reads.map { "\($0).Daemoned" }.joined(separator: " && "))))
                entries.append(
                    (
                        "arguments",
                        .map([
                            (
                                "parameters",
                                .list(
                                    service.reads.map {
                                        .map([("name", .string($0)), ("value", .string("{{tasks.\($0).ip}}"))])
                                    })
                            )
                        ])
                    ))
            }
            return .map(entries)
        }
        var templates: [ManifestNode] = []
        for step in workflow.steps {
            let made = try self.tasks(
                for: step, fileName: fileName, services: serviceTemplates, statusRegion: statusRegion)
            tasks += made.tasks
            templates += made.templates
            if case .fanned(let indices) = shape(of: step),
                let warning = fanOutWarning(step, count: indices?.count)
            {
                warnings.append(warning)
            }
            if let forEach = step.forEach {
                if case .single = shape(of: step) {
                    warnings.append(
                        "step '\(step.id)': a for-each race (parallel: \(forEach.atLeast != nil ? "at-least" : "any")) "
                            + "runs all its items inside one task")
                }
            }
        }
        let outcome = outcomeTaskAndTemplate()
        tasks.append(outcome.task)
        templates.append(outcome.template)
        var dag: [(String, ManifestNode)] = [("tasks", .list(tasks))]
        // A failed step must not stop the steps that run after failures (`if: always()`); flow decides.
        dag.insert(("failFast", .bool(false)), at: 0)
        let main = ManifestNode.map([
            ("name", .string("flow")), ("parallelism", .int(mainParallelism)), ("dag", .map(dag)),
        ])
        var spec: [(String, ManifestNode)] = [("entrypoint", .string("flow"))]
        let backstop = deadlineBackstop()
        if let seconds = backstop.seconds { spec.append(("activeDeadlineSeconds", .int(seconds))) }
        if let warning = backstop.warning { warnings.append(warning) }
        if let reference = artifactRepositoryRef { spec.append(("artifactRepositoryRef", reference)) }
        if let collection = artifactGCNode { spec.append(("artifactGC", collection)) }
        if let warning = artifactGCWarning() { warnings.append(warning) }
        if let warning = artifactWarning() { warnings.append(warning) }
        let parameters = workflow.inputs.map { input -> ManifestNode in
            var entries: [(String, ManifestNode)] = [("name", .string(input.name))]
            if let value = inputs[input.name] ?? input.defaultValue.map(\.description) {
                entries.append(("value", .string(value)))
            }
            return .map(entries)
        }
        if !parameters.isEmpty {
            spec.append(("arguments", .map([("parameters", .list(parameters))])))
        }
        spec.append(("volumes", .list(workflowVolumes + [Self.recordsVolumeAndMount().volume])))
        spec.append(("templates", .list([main] + templates + serviceTemplates.map(\.template))))
        var metadata: [(String, ManifestNode)] = [("generateName", .string(Self.kubernetesName(workflowName) + "-"))]
        if let namespace { metadata.append(("namespace", .string(namespace))) }
        let manifest = ManifestNode.map([
            ("apiVersion", .string("argoproj.io/v1alpha1")), ("kind", .string("Workflow")),
            ("metadata", .map(metadata)), ("spec", .map(spec)),
        ])
        return (try finishing(manifest), warnings)
    }

    /// Where a step pod reads secret `name`: the run's Secret under the key `name`, always
    /// `optional: true`: a Secret without the key would leave the pod Pending forever
    /// (CreateContainerConfigError); so the pod starts, and flow, which checks the secrets its
    /// step needs before it sends anything, fails the task saying which one is not set (a
    /// secret in `optional-secrets` reads as unset, as in `flow run`).
    private func secretKeyReference(_ name: String) -> [(String, ManifestNode)] {
        [("name", .string(secretName)), ("key", .string(name)), ("optional", .bool(true))]
    }

    /// The workflow's `name`, else its file's base name without the extension.
    var workflowName: String {
        workflow.name ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    /// `kubectl create configmap` for the files of `configMapFiles`.
    var configMapCommand: String {
        "kubectl create configmap \(configMap)"
            + configMapFiles.map { " --from-file=\($0.key)=\($0.source)" }.joined()
    }

    // MARK: - Steps

    /// How a top-level step becomes tasks.
    enum Shape {
        /// One task runs the step with all it contains.
        case single
        /// A `for-each` step with `parallel: all`: one pod per item. With the items known before
        /// the run, `withSequence` over their indices (`withItems: [-1]` for none); otherwise a task `ID-items` computes them and
        /// the step's task goes `withParam` over its output parameter `items`.
        case fanned(staticIndices: [Int]?)
    }

    func shape(of step: Step) -> Shape {
        guard let forEach = step.forEach, forEach.mode == .all else { return .single }
        // `files('…')` matches in the pod's folder, not here: computed in the run.
        let readsFiles = forEach.items.strings.contains { $0.text.contains("files(") }
        if forEach.itemsAreStatic, !readsFiles,
            let items = DryRunPlan(workflow: workflow, inputs: inputValues, concurrency: 1).knownItems(forEach)
        {
            return .fanned(staticIndices: items.isEmpty ? [-1] : Array(items.indices))
        }
        return .fanned(staticIndices: nil)
    }

    /// The input artifacts that carry need `need`'s records: its task's `flow` parameter, and for
    /// a step fanned out at run time its items task's too (which records it when it was skipped).
    private func needArtifacts(_ need: String, status: Bool = false) -> [NeedArtifact] {
        let task = names.task(need)
        var artifacts: [NeedArtifact] = []
        let step = workflow.steps.first(where: { $0.id == need })
        if let step, case .fanned(nil) = shape(of: step) {
            artifacts.append(
                NeedArtifact(
                    name: "need-\(task)-items", source: .raw(Self.outputOrLost(task: task + "-items", step: step)),
                    path: "\(Self.needsFolder)/\(task)-items.json"))
        }
        let path = "\(Self.needsFolder)/\(task).json"
        if let step, recordsByArtifact(step) {
            // An item pod reads the need's status record, saved as the artifact `brief`.
            return artifacts + artifactNeed(step, path: path, status: status && statusReaders[need] != nil)
        }
        // An item pod reads a need's status record when it has one (see `itemStatusReaders`).
        var reference = recordsReference(need)
        if status, statusReaders[need] != nil, let step {
            reference = Self.outputOrLost(task: task, step: step, output: Self.statusOutput)
        }
        artifacts.append(NeedArtifact(name: "need-\(task)", source: .raw(reference), path: path))
        return artifacts
    }

    /// The tasks and templates of one top-level step.
    func tasks(for step: Step, fileName: String, services: [ServiceTask], statusRegion: Set<String>) throws(Problem)
        -> (tasks: [ManifestNode], templates: [ManifestNode])
    {
        var depends: [String] = services.map { "\($0.task).Daemoned" }
        for need in step.needs {
            let task = names.task(need)
            // Where a status function may run a step after a failure, every task runs once its needs
            // are done and flow decides inside (a skipped step's task succeeds, its record says skipped).
            // `.Errored` too: a pod lost or evicted is Errored, not Failed, and a cleanup must still run.
            // A `continue-on-error` need's failure counts as success for its dependents (its pod exits 0
            // then), so its lost pod does too: they run and read the lost record, marked failure-ignored.
            let ignoresFailure = workflow.steps.first(where: { $0.id == need })?.continueOnError == true
            depends.append(
                statusRegion.contains(step.id) || ignoresFailure
                    ? "(\(task).Succeeded || \(task).Failed || \(task).Errored)" : "\(task).Succeeded")
        }
        let needs = recordsGiven(to: step).flatMap { needArtifacts($0) }
        // Only the pointer files are passed with --outputs-from; the records they point at lie beside.
        let given = needs.filter { if case .raw = $0.source { true } else { false } }.map(\.path)
        let byArtifact = recordsByArtifact(step)
        let serviceParameters = services.map { (name: $0.task, value: "{{tasks.\($0.task).ip}}") }
        let name = names.task(step.id)
        switch shape(of: step) {
        case .single:
            let task = Self.task(
                name: name, template: templateName(step.id), depends: depends, parameters: serviceParameters,
                artifacts: needs)
            let template = try self.template(
                name: templateName(step.id), step: step, fileName: fileName, services: services,
                extra: given.flatMap { ["--outputs-from", $0] } + statusArguments(step), parameters: [],
                artifacts: needs,
                outputs: [("flow", Self.outputsPath)]
                    + (statusReaders[step.id] != nil ? [(Self.statusOutput, Self.statusPath)] : []),
                perItem: false, byArtifact: byArtifact)
            return ([task], [template])
        case .fanned(let indices?):
            // Each item's pod decides the step itself: it is given its needs' status records.
            let needs = itemRecordsGiven(to: step, static: true).flatMap { needArtifacts($0, status: true) }
            let given = needs.filter { if case .raw = $0.source { true } else { false } }.map(\.path)
            let fanned = fannedTask(
                name: name, step: step, depends: depends, parameters: serviceParameters,
                artifacts: needs, loop: Self.staticLoop(indices))
            let template = try self.template(
                name: templateName(step.id), step: step, fileName: fileName, services: services,
                extra: given.flatMap { ["--outputs-from", $0] } + ["--item={{inputs.parameters.item}}"],
                parameters: byArtifact ? ["item", "index"] : ["item"], artifacts: needs,
                outputs: [("flow", Self.outputsPath)],
                perItem: true, byArtifact: byArtifact)
            return ([fanned.task], fanned.templates + [template])
        case .fanned(nil):
            let itemsName = name + "-items"
            let itemsTask = Self.task(
                name: itemsName, template: "items-" + name, depends: depends, parameters: serviceParameters,
                artifacts: needs)
            let itemsTemplate = try self.template(
                name: "items-" + name, step: step, fileName: fileName, services: services,
                extra: given.flatMap { ["--outputs-from", $0] } + ["--items-to", Self.itemsPath], parameters: [],
                artifacts: needs,
                outputs: [("flow", Self.outputsPath), ("items", Self.itemsPath)], perItem: nil, byArtifact: false)
            let upstream = "\(Self.needsFolder)/\(itemsName).json"
            // Each item's pod is given its item (`{{item}}`: an entry of the items task's list) and
            // the records its item reads, not those the items task decided the step from (see
            // `recordsGiven(toItemsOf:)`); the items task's record carries the upstream failures.
            let itemNeeds = itemRecordsGiven(to: step, static: false).flatMap { needArtifacts($0, status: true) }
            let fanned = fannedTask(
                name: name, step: step, depends: services.map { "\($0.task).Daemoned" } + ["\(itemsName).Succeeded"],
                parameters: serviceParameters,
                artifacts: [
                    NeedArtifact(
                        name: "need-\(itemsName)", source: .raw("{{tasks.\(itemsName).outputs.parameters.flow}}"),
                        path: upstream)
                ] + itemNeeds,
                loop: ("withParam", .string("{{tasks.\(itemsName).outputs.parameters.items}}")))
            let itemGiven = itemNeeds.filter { if case .raw = $0.source { true } else { false } }.map(\.path)
            let template = try self.template(
                name: templateName(step.id), step: step, fileName: fileName, services: services,
                extra: ["--outputs-from", upstream] + itemGiven.flatMap { ["--outputs-from", $0] }
                    + ["--item={{inputs.parameters.item}}"], parameters: byArtifact ? ["item", "index"] : ["item"],
                artifacts: [NeedArtifact(name: "need-\(itemsName)", source: .raw(""), path: upstream)] + itemNeeds,
                outputs: [("flow", Self.outputsPath)], perItem: true, byArtifact: byArtifact)
            return ([itemsTask, fanned.task], [itemsTemplate] + fanned.templates + [template])
        }
    }

    static func appending(_ node: ManifestNode, _ entry: (String, ManifestNode)) -> ManifestNode {
        guard case .map(var entries) = node else { return node }
        entries.append(entry)
        return .map(entries)
    }

    static func task(
        name: String, template: String, depends: [String], parameters: [(name: String, value: String)],
        artifacts: [NeedArtifact]
    ) -> ManifestNode {
        var entries: [(String, ManifestNode)] = [("name", .string(name)), ("template", .string(template))]
        if !depends.isEmpty { entries.append(("depends", .string(depends.joined(separator: " && ")))) }
        var arguments: [(String, ManifestNode)] = []
        if !parameters.isEmpty {
            arguments.append(
                (
                    "parameters",
                    .list(parameters.map { .map([("name", .string($0.name)), ("value", .string($0.value))]) })
                ))
        }
        let passed = artifacts.compactMap(\.argument)
        if !passed.isEmpty { arguments.append(("artifacts", .list(passed))) }
        if !arguments.isEmpty { entries.append(("arguments", .map(arguments))) }
        return .map(entries)
    }

    /// A container template running `flow run /flow/FILE --only ID` with `extra` arguments.
    /// `perItem`: true for an item's pod (retry and timeout per item), false for a whole step,
    /// nil for an items task (neither: it sends nothing).
    private func template(
        name: String, step: Step, fileName: String, services: [ServiceTask], extra: [String], parameters: [String],
        artifacts: [NeedArtifact], outputs: [(name: String, path: String)], perItem: Bool?, byArtifact: Bool
    ) throws(Problem) -> ManifestNode {
        var arguments =
            ["run", "\(Self.mountPath)/\(fileName)", "--only", step.id, "--outputs-to", Self.outputsPath] + extra
        for input in workflow.inputs {
            arguments += ["--input", "\(input.name)={{workflow.parameters.\(input.name)}}"]
        }
        for service in services {
            arguments += ["--service", "\(service.name)=http://{{inputs.parameters.\(service.task)}}:\(service.port)"]
        }
        var container: [(String, ManifestNode)] = [
            ("image", .string(image)), ("command", .list([.string("flow")])),
            ("args", .list(arguments.map { .string($0) })),
        ]
        let secrets = secretNames(for: step)
        if !secrets.isEmpty {
            container.append(
                (
                    "env",
                    .list(
                        secrets.map { name in
                            .map([
                                ("name", .string("FLOW_SECRET_\(name)")),
                                (
                                    "valueFrom",
                                    .map([
                                        ("secretKeyRef", .map(secretKeyReference(name)))
                                    ])
                                ),
                            ])
                        })
                ))
        }
        container.append(("workingDir", .string(Self.mountPath)))
        container.append(("volumeMounts", .list(workflowMounts + [Self.recordsVolumeAndMount().mount])))
        var entries: [(String, ManifestNode)] = [("name", .string(name))]
        var inputs: [(String, ManifestNode)] = []
        let inputParameters = services.map(\.task) + parameters
        if !inputParameters.isEmpty {
            inputs.append(("parameters", .list(inputParameters.map { .map([("name", .string($0))]) })))
        }
        if !artifacts.isEmpty {
            inputs.append(("artifacts", .list(artifacts.map(\.input))))
        }
        if !inputs.isEmpty { entries.append(("inputs", .map(inputs))) }
        // Records that can pass Argo's limits leave as the artifact `records` instead of the
        // parameter `flow` (see `recordsOutputArtifact`).
        let parameters = outputs.filter { !(byArtifact && ($0.name == "flow" || $0.name == Self.statusOutput)) }
        var outputEntries: [(String, ManifestNode)] = []
        if !parameters.isEmpty {
            outputEntries.append(
                (
                    "parameters",
                    .list(
                        parameters.map {
                            .map([
                                ("name", .string($0.name)),
                                (
                                    "valueFrom",
                                    .map([
                                        ("path", .string($0.path)),
                                        ("default", .string(Self.lostDefault(output: $0.name, step: step))),
                                    ])
                                ),
                            ])
                        })
                ))
        }
        if byArtifact {
            let status = outputs.contains { $0.name == Self.statusOutput } ? [Self.statusOutputArtifact()] : []
            outputEntries.append(
                ("artifacts", .list([recordsOutputArtifact(step, perItem: perItem == true)] + status)))
        }
        entries.append(("outputs", .map(outputEntries)))
        // No pod deadline: a pod's `activeDeadlineSeconds` counts from the pod's start, image pull
        // and init included, so it could end a step before its timeout; flow enforces the step's
        // timeout inside the container, from when it starts (see Grammar.md).
        if perItem != nil, let retry = step.retry ?? (step.children.isEmpty ? workflow.defaults.retry : nil),
            retry.attempts > 1
        {
            entries.append(("retryStrategy", try retryStrategy(retry, step: step)))
        }
        entries.append(("container", .map(container)))
        return .map(entries)
    }

    /// The step's timeout in whole seconds plus 30 for the pod to start and flow to write its
    /// outputs; flow enforces the exact timeout inside.
    static func deadline(_ timeout: Duration) -> Int {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return Int(seconds.rounded(.up)) + 30
    }

    static func durationText(_ duration: Duration) -> String {
        DurationFormat.text(duration, .go)
    }

    /// Every secret the workflow and the files it calls read, sorted.
    var secretNames: [String] {
        func names(_ workflow: Workflow) -> [String] {
            workflow.secretReferences().map(\.name) + workflow.called.values.flatMap(names)
        }
        return Array(Set(names(workflow))).sorted()
    }

    /// Top-level steps whose `if` calls `always()`, `failure()` or `cancelled()`, and every step
    /// upstream of one: their tasks run whenever their needs are done (see `task(for:)`).
    static func statusRegion(_ workflow: Workflow) -> Set<String> {
        let byId = Dictionary(workflow.steps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var region: Set<String> = []
        var pending = workflow.steps.filter { step in
            guard let text = step.condition?.text else { return false }
            return ["always(", "failure(", "cancelled("].contains { text.contains($0) }
        }.map(\.id)
        while let id = pending.popLast() {
            guard region.insert(id).inserted, let step = byId[id] else { continue }
            pending += step.needs
        }
        return region
    }

    // MARK: - Names

    /// The container template of top-level step `id`.
    func templateName(_ id: String) -> String { "step-" + names.task(id) }

    static func kubernetesName(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        let trimmed = String(mapped).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return trimmed.isEmpty ? "flow" : trimmed
    }
}
