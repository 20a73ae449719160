import Dispatch
import FlowDSL
import FlowTasks

/// Runs `call` steps: the handler registered under the step's name, in a Task of its own, bridged
/// to the step's future. Cancelling the future cancels the Task, and the run waits for it.
struct HostStepRunner: Sendable {
    let registry: HostStepRegistry
    let values: RunValues
    let masker: SecretMasker
    let queue: DispatchQueue
    /// `defaults.retry`, for steps without their own.
    let defaultRetry: Retry?
    /// Where a cancelled handler's Task is waited for before the run ends.
    let cleanups: CleanupTracker

    /// Calls the handler; under `retry`, a handler that threw is called again.
    func run(_ step: Step, _ call: CallStep, start: StepStart<StepResult>) -> Future<RunnerOutput> {
        guard let handler = registry.handler(named: call.name) else {
            let error = StepError(
                "no handler named '\(Echo.text(call.name))' is registered for this 'call' step", at: call.location)
            return Future.failed(error, on: queue)
        }
        let inputs: [String: Value]
        do {
            let scope = values.scope(for: call.with.strings, records: start.records, locals: start.locals)
            guard case .object(let members) = try call.with.value(in: scope) else {
                return Future.failed(StepError("'with' is not a mapping", at: call.location), on: queue)
            }
            inputs = members
        } catch {
            return Future.failed(error, on: queue)
        }
        let index: Int? =
            if case .number(let number, _)? = start.locals[ForEach.indexName] { Int(number) } else { nil }
        return StepRetry.run(step.retry, defaultRetry: defaultRetry, start: start, masker: masker, on: queue) {
            [self] attempt in
            let request = HostStepCall(name: call.name, step: start.id, inputs: inputs, attempt: attempt, index: index)
            return once(handler, request, at: call.location)
        }
    }

    /// One call in a Task of its own; `result.outputs` is what the handler returned.
    private func once(_ handler: @escaping HostStepRegistry.Handler, _ call: HostStepCall, at location: SourceLocation)
        -> Future<Value>
    {
        let promise = Promise<Value>(on: queue)
        // Completed when the handler has returned, however: the run waits for it once cancelled,
        // so no handler code still runs after the run's future completed.
        let returned = Promise<Void>(on: queue)
        let masker = masker
        let task = Task {
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(.object(["outputs": .object(try await handler(call))]))
            } catch {
                // The handler's text may hold a secret it was given, or a server's escape sequences.
                let reason = Echo.escapingUnprintable(masker(String(describing: error)))
                outcome = .failure(
                    StepError("handler '\(Echo.text(call.name))' failed: \(reason)", at: location, retryable: true))
            }
            returned.succeed(())
            promise.complete(outcome)
        }
        let cleanups = cleanups
        promise.onCancel {
            cleanups.add(returned.future)
            task.cancel()
        }
        return promise.future
    }
}
