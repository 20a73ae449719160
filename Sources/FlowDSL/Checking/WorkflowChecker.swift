/// Parses a composed document and runs every check, collecting all diagnostics.
enum WorkflowChecker {
    /// `streamed` are the top-level steps when they were parsed while the file was read; with
    /// `twoCores`, the expression check is shared with a second thread (see
    /// `ExpressionCheck.diagnosticsOnTwoCores`).
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
        // The checks only read the workflow. On two cores, the expression check (the longest)
        // is shared with a second thread while this one does the others; the messages are put
        // together in the same order either way.
        let checked = workflow
        let others = { () -> (graph: [Diagnostic], rest: [Diagnostic]) in
            var graph = GraphCheck(workflow: checked)
            graph.run()
            var rest = ShellQuoteCheck.diagnostics(in: checked)
            rest += URLCheck.diagnostics(in: checked)
            rest += ForEachCheck.diagnostics(in: checked)
            rest += RepeatCheck.diagnostics(in: checked)
            rest += RetryCheck.diagnostics(in: checked)
            rest += HeaderExpectationCheck.diagnostics(in: checked)
            return (graph.diagnostics, rest)
        }
        if twoCores, let shared = ExpressionCheck.diagnosticsOnTwoCores(of: workflow, besides: others) {
            diagnostics += shared.besides.graph + shared.expressions + shared.besides.rest
        } else {
            let (graph, rest) = others()
            var expressions = ExpressionCheck(workflow: workflow)
            expressions.run()
            diagnostics += graph + expressions.diagnostics + rest
        }
        return CheckResult(
            workflow: workflow, diagnostics: diagnostics, file: file, sourceLines: sourceLines,
            calledFiles: uses.files)
    }
}
