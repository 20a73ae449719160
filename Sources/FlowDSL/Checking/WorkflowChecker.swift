/// Parses a composed document and runs every check, collecting all diagnostics.
enum WorkflowChecker {
    /// `streamed` are the top-level steps when they were parsed while the file was read; with
    /// `twoCores`, the expression check runs on a thread of its own beside the other checks.
    static func check(
        root: Node, file: String, sourceLines: [Substring], context: UsesContext,
        streamed: StepStream.Parsed? = nil, twoCores: Bool = false
    ) -> CheckResult {
        var parser = WorkflowParser(file: file, streamed: streamed)
        let parts = parser.parse(root)
        var diagnostics = parser.reader.diagnostics
        var workflow = Workflow(
            file: file,
            version: parts.version,
            name: parts.name,
            description: parts.description,
            inputs: parts.inputs,
            env: parts.env,
            defaults: parts.defaults,
            concurrency: parts.concurrency,
            steps: parts.steps,
            services: parts.services,
            settingExpressions: parser.reader.settings,
            outputs: parts.outputs
        )
        workflow.settingsFingerprint = parts.settingsFingerprint
        workflow.optionalSecrets = parts.optionalSecrets
        // The called files first: checking expressions needs their inputs and outputs.
        let uses = UsesCheck.run(&workflow, context: context)
        diagnostics += uses.diagnostics
        // The checks only read the workflow. The expression check, the longest, may run on a
        // second core; the messages are put together in the same order either way.
        let checked = workflow
        let expressionCheck = { @Sendable in
            var expressions = ExpressionCheck(workflow: checked)
            expressions.run()
            return expressions.diagnostics
        }
        let secondCore = twoCores ? SecondCore.start(expressionCheck) : nil
        var graph = GraphCheck(workflow: workflow)
        graph.run()
        diagnostics += graph.diagnostics
        var others = ShellQuoteCheck.diagnostics(in: workflow)
        others += URLCheck.diagnostics(in: workflow)
        others += ForEachCheck.diagnostics(in: workflow)
        others += RepeatCheck.diagnostics(in: workflow)
        others += RetryCheck.diagnostics(in: workflow)
        others += HeaderExpectationCheck.diagnostics(in: workflow)
        diagnostics += secondCore?.join() ?? expressionCheck()
        diagnostics += others
        return CheckResult(
            workflow: workflow, diagnostics: diagnostics, file: file, sourceLines: sourceLines,
            calledFiles: uses.files)
    }
}
