import Dispatch
import FlowDSL
import FlowTasks

/// Runs `run` steps through `ProcessRunner`.
///
/// A script's `${{ }}` values are never spliced into the shell text: each becomes an environment
/// variable (`FLOW_EXPR_1`, …) and the script refers to it as `${FLOW_EXPR_1}`, so no value can
/// inject commands. An argv's values are passed as arguments, without a shell.
struct RunStepRunner: Sendable {
    let values: RunValues
    /// The workflow's `env`, evaluated when the run started.
    let workflowEnvironment: [String: String]
    let masker: SecretMasker
    let queue: DispatchQueue
    /// `defaults.retry`, for steps without their own.
    let defaultRetry: Retry?
    /// The workflow file's folder (absolute): a relative `cwd` is taken from it.
    var workflowFolder: String?
    /// The run's process groups, which each command's joins.
    var processGroups = ProcessGroups()

    /// Runs the command; under `retry`, a failed command (a non-zero exit) is run again.
    func run(_ step: Step, _ command: RunStep, start: StepStart<StepResult>) -> Future<RunnerOutput> {
        let spec: ProcessSpec
        do {
            spec = try makeSpec(command, records: start.records, locals: start.locals)
        } catch {
            return Future.failed(error, on: queue)
        }
        return StepRetry.run(step.retry, defaultRetry: defaultRetry, start: start, masker: masker, on: queue) {
            [self] _ in once(spec, command: command, start: start)
        }
    }

    private func once(_ spec: ProcessSpec, command: RunStep, start: StepStart<StepResult>) -> Future<Value> {
        let masker = masker
        return ProcessRunner.run(spec, on: queue, groups: processGroups) { line, stream, hold in
            start.report(.line(masker(line), stream: stream, hold: hold))
        }
        .map(on: queue) { outcome in
            let result: Value = .object([
                "exit_code": .number(Double(outcome.exitCode)),
                "stdout": .string(outcome.stdout),
                "stderr": .string(outcome.stderr),
            ])
            guard outcome.exitCode == 0 else {
                let how = outcome.signal.map { "was killed by signal \($0)" } ?? "exited with code \(outcome.exitCode)"
                // Masked whole before the last lines are taken, so a multi-line secret is masked whole;
                // escaped last, so the command's escape sequences cannot restyle the terminal.
                let tail = Echo.escapingUnprintable(
                    masker(outcome.stderr).split(whereSeparator: \.isNewline).suffix(3).joined(separator: " | "))
                throw StepError(
                    "the command \(how)" + (tail.isEmpty ? "" : ": \(tail)"), at: command.location,
                    retryable: true)
            }
            return result
        }
        .flatMapError(on: queue) { error in
            guard let launch = error as? ProcessLaunchError else { throw error }
            throw StepError(masker(launch.description), at: command.location)
        }
    }

    func makeSpec(
        _ command: RunStep, records: RunRecords<StepResult>, locals: [String: Value] = [:]
    ) throws(StepError) -> ProcessSpec {
        var texts = command.env.map(\.value)
        if let cwd = command.cwd { texts.append(cwd) }
        switch command.command {
        case .script(let script): texts.append(script)
        case .arguments(let arguments): texts += arguments
        }
        let scope = values.scope(for: texts, records: records, locals: locals)
        var environment = workflowEnvironment
        for variable in command.env {
            environment[variable.name] = try variable.value.string(in: scope)
        }
        let processCommand: ProcessSpec.Command
        switch command.command {
        case .script(let script):
            processCommand = .shell(try Self.shellScript(script, scope: scope, environment: &environment))
        case .arguments(let arguments):
            var argv: [String] = []
            for argument in arguments { argv.append(try argument.string(in: scope)) }
            processCommand = .argv(argv)
        }
        let spec = ProcessSpec(
            command: processCommand, environment: environment,
            workingDirectory: try workingDirectory(command, scope: scope))
        try ArgumentLimits.check(spec, at: command.location)
        return spec
    }

    /// `cwd`, a relative one inside the workflow file's folder, as every path in a workflow.
    private func workingDirectory(_ command: RunStep, scope: ExpressionScope) throws(StepError) -> String? {
        guard let cwd = command.cwd else { return nil }
        let text = try cwd.string(in: scope)
        guard let workflowFolder else { return text }
        return WorkflowPath.absolute(text, in: workflowFolder)
    }

    /// The script with each `${{ }}` replaced by a reference to a variable holding its value.
    static func shellScript(
        _ script: ScalarText, scope: ExpressionScope, environment: inout [String: String]
    ) throws(StepError) -> String {
        if let error = script.syntaxError {
            throw StepError("invalid expression: \(error.message)", at: script.location(ofOffset: error.offset))
        }
        guard let template = script.template, !template.isLiteral else { return script.text }
        let characters = Array(script.text)
        var text = ""
        var position = 0
        for (index, embedded) in template.expressions.enumerated() {
            let name = "FLOW_EXPR_\(index + 1)"
            text += String(characters[position..<embedded.openingOffset])
            text += "${\(name)}"
            position = embedded.openingOffset + embedded.length
            do {
                environment[name] = try embedded.expression.evaluate(scope).interpolated
            } catch {
                throw StepError(
                    "cannot evaluate '\(embedded.expression.source)': \(error.message)",
                    at: script.location(ofOffset: embedded.offset + error.offset))
            }
        }
        text += String(characters[position...])
        return text
    }
}
