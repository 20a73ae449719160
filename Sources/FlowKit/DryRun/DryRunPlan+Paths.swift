import FlowDSL
import FlowEngine
import Foundation

/// How `--dry-run` shows paths: as the run resolves them (see `WorkflowPath`), and the paths the
/// run would refuse when their values are already known (a `for-each` item, an input).
extension DryRunPlan {
    /// `inputs` with each `file` input's path absolute against the current folder, as the run
    /// reads it (it stays relative to where the user typed it, not to the workflow's folder).
    static func resolvingFileInputs(_ inputs: [String: InputValue], of workflow: Workflow) -> [String: InputValue] {
        var resolved = inputs
        for input in workflow.inputs where input.kind == .file {
            guard case .string(let path)? = inputs[input.name] else { continue }
            resolved[input.name] = .string(
                WorkflowPath.absolute(path, in: FileManager.default.currentDirectoryPath))
        }
        return resolved
    }

    /// The workflow file's folder, absolute: what the run resolves relative paths against.
    var absoluteFolder: String {
        WorkflowPath.absolute(workflow.folder, in: FileManager.default.currentDirectoryPath)
    }

    /// A rendered path as the run resolves it: inside the workflow file's folder when relative;
    /// a placeholder (`<steps.a.outputs.file>`), known only at run time, as it is.
    func resolved(_ path: String) -> String {
        path.hasPrefix("<") ? path : WorkflowPath.absolute(path, in: absoluteFolder)
    }

    /// One line per path of `step` the run would refuse (`refused: 'save-to' is …`), unless the
    /// step sets `allow-outside`.
    func refusedPaths(_ step: Step) -> [String] {
        guard !step.allowOutside else { return [] }
        var paths: [(ScalarText, String)] = []
        switch step.kind {
        case .http(let http):
            if let saveTo = http.responseBody.saveTo { paths.append((saveTo, "'save-to'")) }
            switch http.body {
            case .file(let text)?: paths.append((text, "'body-file'"))
            case .multipart(let parts)?:
                for part in parts {
                    if case .file(let text, _, _) = part.content {
                        paths.append((text, "multipart part '\(part.name)'"))
                    }
                }
            default: break
            }
        case .upload(let upload):
            paths.append((upload.file, "'upload.file'"))
        default:
            break
        }
        return paths.compactMap { text, key in
            WorkflowPath.refusal(text, key: key, in: known, folder: absoluteFolder).map { "      refused: \($0)" }
        }
    }
}
