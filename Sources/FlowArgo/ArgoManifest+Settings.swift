import FlowDSL
import FlowKit

extension ArgoManifest {
    /// The workflow with its `${{ }}` settings (`concurrency`, `retry`, `timeout`, …) computed
    /// from the export's `--input` values and the inputs' defaults, as `flow run` computes them
    /// when it starts, and a warning for each one the manifest holds as a number: Argo's
    /// `parallelism` and `retryStrategy` cannot read a workflow parameter, so `argo submit -p`
    /// does not change them (flow inside each pod still computes its own from the parameter).
    /// A problem carrying the diagnostics when a value does not fit its setting (exit 2).
    static func resolvingSettings(_ workflow: Workflow, inputs: [String: InputValue], loaded: CheckResult)
        throws(Problem)
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
            throw Problem(message: "", diagnostics: failed.renderedDiagnostics())
        }
    }
}

extension ArgoManifest {
    /// The default backstop when no timeout bounds the run: a day.
    static let unboundedDeadline = 86_400
    /// What each task may spend besides its step's timeout: scheduling, image pull, init.
    static let podStartSlack = 60

    /// The Workflow's `activeDeadlineSeconds`: a backstop against a Workflow that Argo would leave
    /// Running, such as a task waiting for a record a lost pod never wrote (`dag.go`
    /// `resolveDependencyReferences` requeues forever; issue 28). `--active-deadline` sets it (0:
    /// none); else it is the longest the run can take by its timeouts: every top-level step one
    /// after another, each its `timeout` (or `defaults.timeout`) plus `podStartSlack` per attempt
    /// Argo may make, a
    /// fanned-out step once per round of items, every service its `ready` timeout. A step no
    /// timeout bounds gives `unboundedDeadline` and a warning naming it.
    func deadlineBackstop() -> (seconds: Int?, warning: String?) {
        if let activeDeadline { return (activeDeadline > 0 ? activeDeadline : nil, nil) }
        var total = workflow.services.reduce(0) { $0 + Self.seconds($1.timeout) + Self.podStartSlack }
        var unbounded: [String] = []
        for step in workflow.steps {
            guard let timeout = step.timeout ?? workflow.defaults.timeout else {
                unbounded.append(step.id)
                continue
            }
            var rounds = 1
            if let forEach = step.forEach, case .fanned(let indices) = shape(of: step) {
                guard let indices else {
                    unbounded.append(step.id)
                    continue
                }
                let width = max(1, itemParallelism(forEach))
                rounds = (indices.count + width - 1) / width
            }
            // A pod lost under a step is retried by Argo (`retryStrategy`, see `retryStrategy`):
            // each attempt its timeout, with Argo's waits between them.
            var each = Self.seconds(timeout) + Self.podStartSlack
            if let retry = step.retry ?? (step.children.isEmpty ? workflow.defaults.retry : nil), retry.attempts > 1 {
                let longest = retry.maxDelay ?? retry.delay * (1 << min(retry.attempts - 1, 16))
                each = retry.attempts * each + (retry.attempts - 1) * Self.seconds(longest)
            }
            total += rounds * each
        }
        // The items' pods and flow-outcome start too.
        total += Self.podStartSlack
        guard unbounded.isEmpty else {
            return (
                Self.unboundedDeadline,
                "no timeout bounds step\(unbounded.count > 1 ? "s" : "") "
                    + unbounded.map { "'\($0)'" }.joined(separator: ", ")
                    + ": the Workflow's activeDeadlineSeconds (a backstop against a Workflow Argo would leave Running) "
                    + "is \(Self.unboundedDeadline) (a day); give the steps a timeout or set --active-deadline SECONDS"
            )
        }
        return (total, nil)
    }

    /// A duration in whole seconds, rounded up.
    static func seconds(_ duration: Duration) -> Int {
        let components = duration.components
        return Int(components.seconds) + (components.attoseconds > 0 ? 1 : 0)
    }
}
