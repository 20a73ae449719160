import FlowDSL

extension WorkflowRun {
    /// The `tls` files of every request step that are missing or unreadable, among those known
    /// before the run: paths without `${{ }}` (or reading only workflow-level values). Others, and
    /// a CA file from `SSL_CERT_FILE` / `CURL_CA_BUNDLE`, are checked when a step builds an
    /// `https://` request.
    static func unreadableTLSFiles(_ workflow: Workflow, context: TransportContext, values: RunValues)
        -> [StepError]
    {
        let scope = values.scope(for: [], records: RunRecords([:]))
        var problems: [StepError] = []
        var seen = Set<String>()
        for (settings, location) in requestTransports(workflow) where !readsRunValues(settings) {
            let plan: TransportPlan
            do {
                plan = try context.plan(settings, defaults: workflow.defaults.http, scope: scope, masker: .none)
            } catch {
                continue  // reads a step's outputs: checked when that step runs
            }
            for problem in plan.unreadableFiles(at: location, environment: false)
            where seen.insert(problem.message).inserted {
                problems.append(problem)
            }
        }
        return problems
    }

    /// Whether a setting reads what only the run knows (a step's outputs, a `for-each` item, a
    /// `repeat`'s attempt): such files are checked when the step builds its request.
    private static func readsRunValues(_ settings: HTTPTransportSettings) -> Bool {
        settings.texts.contains { text in
            text.template?.expressions.contains { embedded in
                embedded.expression.references.contains {
                    !["inputs", "env", "secrets", "flow", "services"].contains($0.root)
                }
            } ?? false
        }
    }

    /// Each `http` and `upload` step's own transport settings and where the request is written.
    static func requestTransports(_ workflow: Workflow) -> [(HTTPTransportSettings, SourceLocation)] {
        workflow.allSteps.compactMap { step in
            switch step.kind {
            case .http(let http): return (http.transport, http.location)
            case .upload(let upload): return (upload.transport, upload.location)
            default: return nil
            }
        }
    }

    /// The ids of the steps whose requests skip certificate checks (`tls.insecure: true`, their
    /// own or the defaults'), for the warning every run prints.
    package static func insecureSteps(_ workflow: Workflow) -> [String] {
        workflow.allSteps.compactMap { step in
            let own: HTTPTransportSettings
            switch step.kind {
            case .http(let http): own = http.transport
            case .upload(let upload): own = upload.transport
            default: return nil
            }
            let insecure = own.overriding(workflow.defaults.http.transport).tls?.insecure ?? false
            return insecure ? step.id : nil
        }
    }
}
