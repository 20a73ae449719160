import FlowKit

extension ArgoManifest {
    /// The workflow with its `${{ }}` settings (`concurrency`, `retry`, `timeout`, …) computed
    /// from the export's `--input` values and the inputs' defaults, as `flow run` computes them
    /// when it starts, and a warning for each one the manifest holds as a number: Argo's
    /// `parallelism` and `retryStrategy` cannot read a workflow parameter, so `argo submit -p`
    /// does not change them (flow inside each pod still computes its own from the parameter).
    /// Exit 2 after the diagnostics when a value does not fit its setting.
    static func resolvingSettings(_ workflow: Workflow, inputs: [String: InputValue], loaded: CheckResult) throws
        -> (workflow: Workflow, warnings: [String])
    {
        switch workflow.resolvingSettings(in: DryRunValues(workflow: workflow, inputs: inputs)) {
        case .success(let resolved):
            var warnings: [String] = []
            for setting in workflow.settingExpressions {
                let value: String
                switch setting.field {
                case .concurrency: value = "parallelism \(resolved.concurrency)"
                case .retryAttempts, .retryDelay, .retryMaxDelay: value = "its retryStrategy"
                default: continue
                }
                warnings.append(
                    "\(setting.text.location): \(setting.key) '\(setting.text.text)' is computed "
                        + "now, from --input and the defaults, as \(value); `argo submit -p` does not change it "
                        + "(export again with --input to change it)")
            }
            return (resolved, warnings)
        case .failure(let problems):
            let failed = CheckResult(
                workflow: nil, diagnostics: problems.problems.map { .error($0.message, at: $0.location) },
                file: loaded.file, sourceLines: loaded.sourceLines, calledFiles: loaded.calledFiles)
            StandardError.write(failed.renderedDiagnostics())
            throw FlowExit.invalid.exitCode
        }
    }
}
