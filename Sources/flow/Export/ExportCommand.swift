import ArgumentParser
import FlowKit

/// `flow export`: a workflow in another engine's format.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print a workflow in another engine's format.",
        subcommands: [ExportArgoCommand.self]
    )
}

/// `flow export argo FILE`: prints an Argo Workflows `Workflow` manifest (see Grammar.md,
/// "Running on Argo Workflows").
struct ExportArgoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "argo",
        abstract: "Print an Argo Workflows manifest: one DAG task per top-level step.",
        discussion: """
            Each task runs `flow run /flow/FILE --only STEP` in the image; the workflow file comes from \
            a ConfigMap (the manifest's first lines give the kubectl command), secrets from a Kubernetes \
            Secret. Submit with `flow export argo FILE | argo submit -`. Warnings about what maps only \
            approximately go to standard error. Exits 2 when the workflow is invalid or cannot be exported.
            """
    )

    @Argument(help: "The workflow file.")
    var file: String

    @Option(help: "The container image with flow in its PATH.")
    var image = "ghcr.io/flow/flow:latest"

    @Option(help: "The namespace of the Workflow.")
    var namespace: String?

    @Option(name: .customLong("input"), help: ArgumentHelp("An input's value (repeatable).", valueName: "name=value"))
    var inputs: [String] = []

    @Option(help: "The ConfigMap holding the workflow file (default: flow-NAME).")
    var configMap: String?

    @Option(help: "The Kubernetes Secret whose keys are the secrets' names (default: flow-NAME).")
    var secretName: String?

    @Option(help: "The port of the first service's daemon task.")
    var servicePort = 8080

    @Option(
        help: ArgumentHelp(
            "A YAML file merged into the manifest: metadata, spec, container (every container), services.NAME, "
                + "cron (see Grammar.md).", valueName: "file"))
    var overlay: String?

    @Option(help: "Workflow (default), WorkflowTemplate or CronWorkflow.")
    var kind = "Workflow"

    @Option(help: ArgumentHelp("A cron schedule of the CronWorkflow (repeatable).", valueName: "cron"))
    var schedule: [String] = []

    func run() throws {
        // An Argo pod runs the flow command, which has no handlers for `call` steps.
        let result = WorkflowLoader.load(path: file).checkingHostSteps(registered: [])
        DiagnosticOutput.writeText([result])
        guard let workflow = result.workflow, !result.hasErrors else { throw FlowExit.invalid.exitCode }
        if let problem = ArgoManifest.fileInputProblem(workflow) {
            StandardError.write("flow export argo: \(problem.message)\n")
            throw FlowExit.invalid.exitCode
        }
        let problems = RunInputs.problems(in: workflow, arguments: inputs)
        if !problems.isEmpty {
            let failed = CheckResult(
                workflow: nil, diagnostics: problems, file: result.file, sourceLines: result.sourceLines,
                calledFiles: result.calledFiles)
            StandardError.write(failed.renderedDiagnostics())
            throw FlowExit.invalid.exitCode
        }
        var values: [String: String] = [:]
        for argument in inputs {
            guard let equals = argument.firstIndex(of: "=") else { continue }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        let base = ArgoManifest.kubernetesName(workflow.name ?? "")
        var manifest = ArgoManifest(
            workflow: workflow, file: file, image: image, namespace: namespace, inputs: values,
            configMap: configMap ?? "", secretName: secretName ?? "", servicePort: servicePort)
        let name = "flow-" + ArgoManifest.kubernetesName(base == "flow" ? manifest.workflowName : base)
        // `concurrency: ${{ inputs.n }}` and the like: Argo's `parallelism`, `retryStrategy` and
        // the rest are numbers in the manifest, so they are computed here from --input and the
        // defaults, and a warning says so (see ArgoManifest+Settings.swift).
        let resolved = try ArgoManifest.resolvingSettings(workflow, inputs: manifest.inputValues, loaded: result)
        // The ConfigMap's default name carries a digest of its files: each version is its own.
        let digest = manifest.configMapDigest.map { "-" + $0 } ?? ""
        manifest = ArgoManifest(
            workflow: resolved.workflow, file: file, image: image, namespace: namespace, inputs: values,
            configMap: configMap ?? name + digest, secretName: secretName ?? name, servicePort: servicePort)
        let shapes = manifest
        manifest.names = ArgoNames(
            workflow: workflow,
            itemsTask: { step in
                if case .fanned(nil) = shapes.shape(of: step) { return true }
                return false
            }, reserved: [ArgoManifest.outcomeTaskName])
        let built: (manifest: ManifestNode, warnings: [String])
        do throws(ArgoManifest.Problem) {
            guard let kind = ArgoManifest.Kind(rawValue: kind) else {
                throw ArgoManifest.Problem(
                    message: "--kind \(kind): expected "
                        + ArgoManifest.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            }
            manifest.kind = kind
            manifest.schedules = schedule
            if let overlay { manifest.overlay = try ArgoOverlay(path: overlay, workflow: workflow) }
            built = try manifest.build()
        } catch {
            StandardError.write("flow export argo: \(error.message)\n")
            throw FlowExit.invalid.exitCode
        }
        for warning in resolved.warnings + built.warnings {
            StandardError.write("flow export argo: warning: \(warning)\n")
        }
        var header =
            "# flow export argo \(file)\n# The pods read the workflow file from a ConfigMap:\n#   \(manifest.configMapCommand)\n"
        if !manifest.secretNames.isEmpty {
            header +=
                "# and the secrets from a Secret:\n#   kubectl create secret generic \(manifest.secretName)"
                + manifest.secretNames.map { " --from-literal=\($0)=..." }.joined() + "\n"
        }
        print(header + built.manifest.yaml(), terminator: "")
    }
}
