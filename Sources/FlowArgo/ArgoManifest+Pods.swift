import FlowDSL
import FlowKit

extension ArgoManifest {
    /// The entry DAG's `parallelism`: the workflow's `concurrency` plus one slot per service.
    /// A daemon task stays Running for the whole DAG, and Argo counts every Running pod of a
    /// DAG against its `parallelism` (argo-workflows `workflow/controller/node_counters.go`,
    /// `getActiveChildrenCounter`; `operator.go`, `checkParallelism`), so `concurrency: 1` with
    /// a service would leave no slot for any step.
    var mainParallelism: Int { workflow.concurrency + workflow.services.count }

    /// What a step reads or writes on the file system that the pods do not share: files that
    /// are not in the ConfigMap (relative paths other than the workflow's files, local
    /// scripts) and `/tmp` paths (each pod has its own `/tmp`). One warning per top-level step
    /// (its children and the files it calls included) and per service.
    func fileWarnings() -> [String] {
        var warnings: [String] = []
        let envTmp = workflow.env.filter { $0.value.text.contains("/tmp/") || $0.value.text.hasPrefix("/tmp") }
        for variable in envTmp {
            warnings.append(
                "env \(variable.name) is '\(variable.value.text)': each pod has its own /tmp, so a file one step "
                    + "writes there is not in another step's pod; mount a volume in every pod (--overlay, see "
                    + "Grammar.md) and use a path on it")
        }
        for step in workflow.steps {
            var local: [String] = []
            var tmp: [String] = []
            var seen: Set<String> = []
            for (what, text) in Self.fileTexts(of: step, in: workflow) where seen.insert(what + text.text).inserted {
                let value = text.text
                if value.contains("/tmp/") || value.hasPrefix("/tmp") {
                    tmp.append("\(what) '\(value)'")
                } else if Self.isLocalPath(value) {
                    local.append("\(what) '\(value)'")
                }
            }
            if !local.isEmpty {
                warnings.append(
                    "step '\(step.id)' reads \(local.joined(separator: ", ")), which the ConfigMap does not hold "
                        + "(it holds the workflow's own files only): put them in the image or in a volume mounted in "
                        + "every pod (--overlay)")
            }
            if !tmp.isEmpty {
                warnings.append(
                    "step '\(step.id)' uses \(tmp.joined(separator: ", ")): each pod has its own /tmp, so files "
                        + "passed there between steps are not found; use a volume mounted in every pod (--overlay)")
            }
        }
        for service in workflow.services {
            if case .arguments(let arguments) = service.command, let first = arguments.first,
                Self.isLocalPath(first.text)
            {
                warnings.append(
                    "service '\(service.name)' starts '\(first.text)', which the ConfigMap does not hold: put it in "
                        + "the image (--overlay images) or a volume mounted in every pod")
            }
        }
        return warnings
    }

    /// A relative path that is not an expression alone, a flag or a plain word: `data.bin`,
    /// `scripts/x`, `./build.sh`.
    static func isLocalPath(_ text: String) -> Bool {
        guard !text.isEmpty, !text.hasPrefix("/"), !text.hasPrefix("${{"), !text.hasPrefix("-") else { return false }
        return text.contains("/") || text.contains(".")
    }

    /// The paths a step (with its children and the files it calls) names, each with what it is.
    static func fileTexts(of step: Step, in workflow: Workflow) -> [(String, ScalarText)] {
        var found: [(String, ScalarText)] = []
        for tls in [workflow.defaults.http.transport.tls].compactMap({ $0 }) {
            found += tls.files.map { ("tls.\($0.key)", $0.path) }
        }
        func visit(_ step: Step, _ workflow: Workflow) {
            switch step.kind {
            case .upload(let upload):
                found.append(("upload.file", upload.file))
                found += (upload.transport.tls?.files ?? []).map { ("tls.\($0.key)", $0.path) }
            case .http(let request):
                if case .file(let path)? = request.body { found.append(("body-file", path)) }
                if case .multipart(let parts)? = request.body {
                    for part in parts {
                        if case .file(let path, _, _) = part.content { found.append(("multipart file", path)) }
                    }
                }
                if let saveTo = request.responseBody.saveTo { found.append(("save-to", saveTo)) }
                found += (request.transport.tls?.files ?? []).map { ("tls.\($0.key)", $0.path) }
            case .run(let run):
                if let cwd = run.cwd { found.append(("cwd", cwd)) }
                switch run.command {
                case .arguments(let arguments):
                    if let first = arguments.first { found.append(("the command", first)) }
                    found += arguments.dropFirst().filter { $0.text.contains("/tmp/") }.map { ("an argument", $0) }
                case .script(let script):
                    let words = script.text.split(whereSeparator: { " \n\t;|&<>()\"'".contains($0) })
                    for word in words where word.hasPrefix("./") || word.hasPrefix("../") || word.contains("/tmp/") {
                        found.append(
                            ("the script's", ScalarText(text: String(word), location: script.location, textStart: nil)))
                    }
                }
            case .uses(let uses):
                if let called = workflow.called[uses.resolvedPath] {
                    for inner in called.steps { visit(inner, called) }
                }
            case .group, .sleep, .call:
                break
            }
            for child in step.children { visit(child, workflow) }
        }
        visit(step, workflow)
        return found
    }
}
