import Dispatch
import FlowDSL
import FlowEngine
import FlowHTTP
import FlowSandbox
import FlowTasks
import Foundation

/// Runs workflow text against a fresh in-process sandbox, as `flow run` would.
struct WorkflowHarness {
    let sandbox: Sandbox
    let client = HTTPClient()

    static func start() async throws -> WorkflowHarness {
        WorkflowHarness(sandbox: try await Sandbox.start())
    }

    func stop() async {
        client.shutdown()
        await sandbox.stop()
    }

    /// Checks and runs `yaml` (with `BASE` replaced by the sandbox's URL); returns the records and
    /// every line a step printed.
    func run(
        _ yaml: String, inputs: [String: InputValue] = [:], secrets: [String: String] = [:],
        defaultRequestTimeout: Duration? = nil, hostSteps: HostStepRegistry = HostStepRegistry(),
        onEvent: @escaping @Sendable (SchedulerEvent<StepResult>) -> Void = { _ in },
        whileRunning: @Sendable (WorkflowRun) async -> Void = { _ in }
    ) async throws -> (records: [String: StepRecord<StepResult>], lines: [String]) {
        let source = yaml.replacingOccurrences(of: "BASE", with: sandbox.baseURL)
        let checked = WorkflowLoader.check(source: source, file: "test.yaml")
        guard let workflow = checked.workflow, !checked.hasErrors else {
            throw HarnessError(message: checked.diagnostics.map(\.message).joined(separator: "\n"))
        }
        let lines = LockedBox<[String]>([])
        var options = RunOptions(inputs: inputs, secrets: SecretStore(values: secrets))
        if let defaultRequestTimeout { options.defaultRequestTimeout = defaultRequestTimeout }
        options.hostSteps = hostSteps
        let run = try WorkflowRun(
            workflow: workflow, options: options,
            client: client,
            onEvent: { event in
                onEvent(event)
                if case .progress(.line(let line, _, _)) = event.kind {
                    lines.withLock { $0.append("\(event.id): \(line)") }
                }
            })
        let done = run.start()
        await whileRunning(run)
        let records = try await done.value
        return (records.all, lines.withLock { $0 })
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
