import FlowDSL

/// What `flow validate` finds in one workflow file: every problem as a value, and the text flow
/// prints for them.
///
/// ```swift
/// let check = FlowWorkflow.check(contentsOf: "deploy.yaml", hostSteps: options.hostSteps.names)
/// if !check.isValid { FileHandle.standardError.write(Data(check.rendered.utf8)) }
/// ```
public struct FlowValidation: Sendable {
    /// The file's path as given.
    public let file: String
    /// Every problem, errors and warnings, in file order (those without a place first).
    public let diagnostics: [FlowDiagnostic]
    /// Whether it can run: no errors (warnings allowed).
    public let isValid: Bool
    /// How many steps it declares, groups' children included; 0 when it cannot be read.
    public let stepCount: Int
    /// The problems as flow prints them: `file:line:col: error: message`, the source line with a
    /// caret under the column, then the hint; empty when there is none.
    public let rendered: String
    /// The workflow, ready to run, when it is valid.
    public let workflow: FlowWorkflow?
    /// The check, with the lines of the file and of the files it calls.
    let checked: CheckResult

    init(_ result: CheckResult) {
        checked = result
        file = result.file
        diagnostics = result.diagnostics.map(FlowDiagnostic.init)
        isValid = !result.hasErrors
        stepCount = result.workflow?.allSteps.count ?? 0
        rendered = result.renderedDiagnostics()
        workflow = try? FlowWorkflow(checked: result)
    }

    /// `diagnostics` (some of this check's, or those a `FlowError` of this workflow carries: an
    /// input, a report's path) as flow prints them: place, the source line with a caret under the
    /// column, then the hint.
    ///
    /// ```swift
    /// do { run = try workflow.start(options) } catch { print(check.rendered(error.diagnostics)) }
    /// ```
    public func rendered(_ diagnostics: [FlowDiagnostic]) -> String {
        diagnostics.map {
            $0.diagnostic.rendered(sourceLines: checked.lines(of: $0.location?.file ?? file), file: file)
        }.joined()
    }
}

extension FlowWorkflow {
    /// Checks the file at `path` (and the files its `uses` steps call) as `flow validate` does,
    /// without running anything. `hostSteps` are the handlers the app registers
    /// (`FlowHostSteps.names`): a `call` of any other is an error, as when the run would start;
    /// nil leaves `call` steps unchecked (a file checked before its app is known).
    /// `callsAsWarnings` makes such a `call` a warning instead, as `flow run --dry-run` shows it.
    ///
    /// ```swift
    /// let check = FlowWorkflow.check(contentsOf: path, hostSteps: [], callsAsWarnings: true)
    /// ```
    public static func check(contentsOf path: String, hostSteps: Set<String>?, callsAsWarnings: Bool = false)
        -> FlowValidation
    {
        let loaded = WorkflowLoader.load(path: path)
        return FlowValidation(
            hostSteps.map { loaded.checkingHostSteps(registered: $0, asWarnings: callsAsWarnings) } ?? loaded)
    }
}
