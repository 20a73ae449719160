import ArgumentParser
import FlowArgo

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

    @Option(
        help: ArgumentHelp(
            "The Workflow's activeDeadlineSeconds (0: none; default: computed from the timeouts, see Grammar.md).",
            valueName: "seconds"))
    var activeDeadline: Int?

    @Option(
        help: ArgumentHelp(
            "Where records that can pass Argo's size limits go as artifacts: default (the namespace's default "
                + "artifact repository), CONFIGMAP[:KEY] (spec.artifactRepositoryRef), or none (parameters).",
            valueName: "ref"))
    var artifactRepository: String?

    @Option(
        name: .customLong("artifact-gc"),
        help: ArgumentHelp(
            "When Argo deletes the records saved as artifacts: OnWorkflowDeletion (default), OnWorkflowCompletion "
                + "or Never (spec.artifactGC.strategy).",
            valueName: "strategy"))
    var artifactGC: String?

    func run() throws {
        var request = ArgoExportRequest(file: file)
        request.image = image
        request.namespace = namespace
        request.inputs = inputs
        request.configMap = configMap
        request.secretName = secretName
        request.servicePort = servicePort
        request.overlay = overlay
        request.kind = kind
        request.schedules = schedule
        request.activeDeadline = activeDeadline
        request.artifactRepository = artifactRepository
        request.artifactGC = artifactGC
        let result = ArgoExport.export(request)
        StandardError.write(result.errorText)
        guard result.exported else { throw FlowExit.invalid.exitCode }
        print(result.manifest, terminator: "")
    }
}
