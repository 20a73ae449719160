import FlowDSL
import FlowEngine
import FlowTasks
import Foundation

/// A run in progress: its events, its outcome, and how to cancel it.
///
/// The run owns everything it starts: its services and commands are stopped when it ends, and
/// cancelling it gives the guarantees of Ctrl-C in `flow run`: transfers are aborted, commands
/// stopped (SIGTERM, then SIGKILL), `always()` steps still run, reports are written and the
/// journal records the run as interrupted.
///
/// ```swift
/// let run = try workflow.start(options)
/// Task { for await event in run.events { render(event) } }
/// let outcome = await run.outcome        // cancelling this task cancels the run
/// ```
public final class FlowRun: Sendable {
    /// The run's events, bounded in memory (see `FlowEvents`).
    public let events: FlowEvents
    private let session: RunSession
    private let task: Task<FlowOutcome, Never>

    init(_ workflow: FlowWorkflow, options: FlowRunOptions) throws(FlowError) {
        // A `call` of a handler the app did not register stops the run before anything is sent.
        let calls = workflow.checked.checkingHostSteps(registered: options.hostSteps.names)
        guard !calls.hasErrors else {
            throw FlowError(calls.diagnostics.filter { $0.severity == .error }.map(FlowDiagnostic.init))
        }
        let inputs = try workflow.checkedInputs(options.inputs)
        let secrets = try options.secrets.store()
        if let concurrency = options.concurrency, concurrency < 1 {
            throw FlowError(message: "concurrency must be at least 1, not \(concurrency)")
        }
        let reports = options.reports.map { ReportFile(format: $0.format, path: $0.path) }
        let reportProblems = reports.compactMap(\.problem)
        guard reportProblems.isEmpty else {
            throw FlowError(reportProblems.map { FlowDiagnostic(.error($0, at: nil)) })
        }
        var settings = RunSettings(workflow: workflow.workflow, secrets: secrets)
        settings.inputs = inputs
        settings.concurrency = options.concurrency
        settings.reports = reports
        settings.sourceLines = workflow.checked.sourceLines
        settings.calledFiles = workflow.checked.calledFiles
        settings.hostSteps = options.hostSteps.registry
        if case .folder(let folder) = options.journal { settings.journal = JournalSettings(stateDirectory: folder) }
        let session = RunSession(settings)
        let buffer = FlowEventBuffer(limit: options.eventBufferLimit)
        self.session = session
        events = FlowEvents(buffer: buffer, onCancel: { session.cancel() })
        let messages = LockedBox(session.warnings)
        let translator = FlowEventTranslator(workflow: workflow.workflow, masker: session.masker)
        var observer = RunObserver()
        observer.event = { event in
            translator.translate(event) { event, policy, _ in
                // A line's hold is let go here, so a slow consumer never paces the command.
                buffer.push(event, policy)
            }
        }
        observer.message = { message in messages.withLock { $0.append(message) } }
        task = Task.detached {
            let ended = await session.run(observer)
            let outcome = translator.outcome(
                ended, records: ended.records, messages: messages.withLock { $0 }, allRecords: true)
            buffer.push(.runFinished(outcome), .kept)
            buffer.finish()
            return outcome
        }
    }

    /// Cancels the run (see the type's documentation); `outcome` then says `cancelled`.
    public func cancel() {
        session.cancel()
    }

    /// How the run ended, once it has. Cancelling the task that waits here cancels the run, and
    /// the wait goes on until the run has stopped (its `always()` steps and reports included).
    public var outcome: FlowOutcome {
        get async {
            let (task, session) = (task, session)
            return await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                session.cancel()
            }
        }
    }

    /// The most events that waited in `events` at once: stays within the bound `FlowEvents` gives.
    package var peakBufferedEvents: Int { events.buffer.peakWaiting }
}
