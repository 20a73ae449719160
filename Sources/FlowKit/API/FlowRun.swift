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
    /// The run's events, bounded in memory (see `FlowEvents`). A run started with a
    /// `FlowRunObserver` gives its events to the observer instead, and this sequence ends empty.
    public let events: FlowEvents
    private let session: RunSession
    private let task: Task<FlowOutcome, Never>

    init(_ workflow: FlowWorkflow, options: FlowRunOptions) throws(FlowError) {
        let settings = try RunSettings(workflow, options: options)
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

    init(_ workflow: FlowWorkflow, options: FlowRunOptions, observer: FlowRunObserver) throws(FlowError) {
        let settings = try RunSettings(workflow, options: options)
        let session = RunSession(settings)
        let buffer = FlowEventBuffer(limit: options.eventBufferLimit)
        self.session = session
        events = FlowEvents(buffer: buffer, onCancel: { session.cancel() })
        for warning in session.warnings { observer.message(warning) }
        var watching = RunObserver()
        // Unbuffered: each event reaches the observer in order, its hold kept until it returns.
        watching.event = session.flowEvents(observer.event)
        watching.serviceReady = observer.serviceReady
        watching.serviceMoved = observer.serviceMoved
        watching.message = observer.message
        watching.stepsStarting = observer.stepsStarting
        watching.finishing = observer.finishing
        task = Task.detached {
            let ended = await session.run(watching)
            buffer.finish()
            return session.summaryOutcome(ended)
        }
    }

    /// For a process about to exit at once (`flow run`'s second Ctrl-C): writes the run's reports
    /// as the run stands (steps still running listed as running), kills every command and
    /// service of the run, and returns the reports' paths. Blocks the calling thread; the run's
    /// `always()` steps do not run. `cancel()` is the way to stop a run that is to end properly.
    public func quitAtOnce() -> [String] {
        session.quitAtOnce()
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
