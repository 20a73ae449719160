import FlowDSL
import FlowKit

/// What `flow export argo` was asked for: the command line's arguments as values.
package struct ArgoExportRequest: Sendable {
    package var file: String
    package var image = "ghcr.io/flow/flow:latest"
    package var namespace: String?
    /// `--input name=value` arguments, as given.
    package var inputs: [String] = []
    package var configMap: String?
    package var secretName: String?
    package var servicePort = 8080
    package var overlay: String?
    package var kind = "Workflow"
    package var schedules: [String] = []
    package var activeDeadline: Int?
    /// `--artifact-repository`: `default`, `none`, `CONFIGMAP` or `CONFIGMAP:KEY` (nil: `default`).
    package var artifactRepository: String?
    /// `--artifact-gc`: `OnWorkflowDeletion` (nil: the default), `OnWorkflowCompletion` or `Never`.
    package var artifactGC: String?

    package init(file: String) { self.file = file }
}

/// What an export produced: the manifest for standard output, the text for standard error
/// (diagnostics, problems, warnings) and whether the workflow could be exported.
package struct ArgoExportResult: Sendable {
    /// The manifest with its header comment; empty when `exported` is false.
    package var manifest = ""
    /// Diagnostics, the problem that stopped the export and warnings, each line ending in `\n`.
    package var errorText = ""
    /// False when the workflow is invalid or cannot be exported (`flow` exits 2).
    package var exported = false
}

/// `flow export argo`: loads and checks a workflow and builds its Argo Workflows manifest (see
/// Grammar.md, "Running on Argo Workflows").
package enum ArgoExport {
    /// Loads `request.file`, checks it and its `--input`s, and builds the manifest.
    package static func export(_ request: ArgoExportRequest) -> ArgoExportResult {
        var result = ArgoExportResult()
        // An Argo pod runs the flow command, which has no handlers for `call` steps.
        let loaded = WorkflowLoader.load(path: request.file).checkingHostSteps(registered: [])
        result.errorText += loaded.renderedDiagnostics()
        guard let workflow = loaded.workflow, !loaded.hasErrors else { return result }
        if let problem = ArgoManifest.fileInputProblem(workflow) {
            result.errorText += "flow export argo: \(problem.message)\n"
            return result
        }
        let problems = RunInputs.problems(in: workflow, arguments: request.inputs)
        if !problems.isEmpty {
            let failed = CheckResult(
                workflow: nil, diagnostics: problems, file: loaded.file, sourceLines: loaded.sourceLines,
                calledFiles: loaded.calledFiles)
            result.errorText += failed.renderedDiagnostics()
            return result
        }
        do throws(ArgoManifest.Problem) {
            let built = try manifest(of: workflow, loaded: loaded, request: request)
            for warning in built.warnings {
                result.errorText += "flow export argo: warning: \(warning)\n"
            }
            result.manifest = built.text
            result.exported = true
        } catch {
            result.errorText += error.diagnostics ?? "flow export argo: \(error.message)\n"
        }
        return result
    }

    private static func manifest(of workflow: Workflow, loaded: CheckResult, request: ArgoExportRequest)
        throws(ArgoManifest.Problem) -> (text: String, warnings: [String])
    {
        var values: [String: String] = [:]
        for argument in request.inputs {
            guard let equals = argument.firstIndex(of: "=") else { continue }
            values[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        }
        let base = ArgoManifest.kubernetesName(workflow.name ?? "")
        var manifest = ArgoManifest(
            workflow: workflow, file: request.file, image: request.image, namespace: request.namespace,
            inputs: values, configMap: request.configMap ?? "", secretName: request.secretName ?? "",
            servicePort: request.servicePort)
        let name = "flow-" + ArgoManifest.kubernetesName(base == "flow" ? manifest.workflowName : base)
        // `concurrency: ${{ inputs.n }}` and the like: Argo's `parallelism`, `retryStrategy` and
        // the rest are numbers in the manifest, so they are computed here from --input and the
        // defaults, and a warning says so (see ArgoManifest+Settings.swift).
        let resolved = try ArgoManifest.resolvingSettings(workflow, inputs: manifest.inputValues, loaded: loaded)
        // The ConfigMap's default name carries a digest of its files: each version is its own.
        let digest = manifest.configMapDigest.map { "-" + $0 } ?? ""
        manifest = ArgoManifest(
            workflow: resolved.workflow, file: request.file, image: request.image, namespace: request.namespace,
            inputs: values, configMap: request.configMap ?? name + digest,
            secretName: request.secretName ?? name, servicePort: request.servicePort)
        let shapes = manifest
        manifest.names = ArgoNames(
            workflow: workflow,
            itemsTask: { step in
                if case .fanned(nil) = shapes.shape(of: step) { return true }
                return false
            }, reserved: [ArgoManifest.outcomeTaskName])
        guard let kind = ArgoManifest.Kind(rawValue: request.kind) else {
            throw ArgoManifest.Problem(
                message: "--kind \(request.kind): expected "
                    + ArgoManifest.Kind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        manifest.kind = kind
        manifest.schedules = request.schedules
        if let activeDeadline = request.activeDeadline, activeDeadline < 0 {
            throw ArgoManifest.Problem(
                message: "--active-deadline \(activeDeadline): expected seconds, or 0 for none")
        }
        manifest.activeDeadline = request.activeDeadline
        if let repository = request.artifactRepository {
            manifest.artifactRepository = try ArgoArtifactRepository(argument: repository)
        }
        if let strategy = request.artifactGC {
            manifest.artifactGC = try ArgoArtifactGC(argument: strategy)
            manifest.artifactGCChosen = true
        }
        if let overlay = request.overlay { manifest.overlay = try ArgoOverlay(path: overlay, workflow: workflow) }
        let built = try manifest.build()
        var header =
            "# flow export argo \(request.file)\n# The pods read the workflow file from a ConfigMap:\n#   \(manifest.configMapCommand)\n"
        if !manifest.secretNames.isEmpty {
            header +=
                "# and the secrets from a Secret:\n#   kubectl create secret generic \(manifest.secretName)"
                + manifest.secretNames.map { " --from-literal=\($0)=..." }.joined() + "\n"
        }
        return (header + built.manifest.yaml(), resolved.warnings + built.warnings)
    }
}
