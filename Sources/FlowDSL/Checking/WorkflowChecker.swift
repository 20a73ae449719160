/// Parses a composed document and runs every check, collecting all diagnostics.
enum WorkflowChecker {
    static func check(root: Node, file: String, sourceLines: [Substring], context: UsesContext) -> CheckResult {
        var parser = WorkflowParser(file: file)
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
        var graph = GraphCheck(workflow: workflow)
        graph.run()
        diagnostics += graph.diagnostics
        var expressions = ExpressionCheck(workflow: workflow)
        expressions.run()
        diagnostics += expressions.diagnostics
        diagnostics += ShellQuoteCheck.diagnostics(in: workflow)
        diagnostics += URLCheck.diagnostics(in: workflow)
        diagnostics += ForEachCheck.diagnostics(in: workflow)
        diagnostics += RepeatCheck.diagnostics(in: workflow)
        diagnostics += RetryCheck.diagnostics(in: workflow)
        diagnostics += HeaderExpectationCheck.diagnostics(in: workflow)
        return CheckResult(
            workflow: workflow, diagnostics: diagnostics, file: file, sourceLines: sourceLines,
            calledFiles: uses.files)
    }
}
