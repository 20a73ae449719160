/// Callbacks that watch a run as it happens, for a program that renders it live (`flow run` is
/// one): every event in order, none dropped, with the hold that paces a command's output. Given
/// to `FlowWorkflow.start(_:observer:)` in place of the buffered `FlowRun.events`.
///
/// The callbacks run on the run's own queues, one at a time for `event`, and the run waits for
/// each: a slow observer slows the run (a command that prints faster than its lines are shown is
/// held back), and nothing is buffered or dropped. Do the least work here; an app that prefers
/// never to hold the run up reads `FlowRun.events` instead, which drops output lines rather than
/// wait.
///
/// ```swift
/// var observer = FlowRunObserver()
/// observer.event = { event, hold in
///     print(event)               // `hold` is released when this returns
/// }
/// observer.message = { FileHandle.standardError.write(Data($0.utf8)) }
/// let outcome = try await workflow.start(options, observer: observer).outcome
/// ```
public struct FlowRunObserver: Sendable {
    /// Each event, in order. `hold` comes with a command's output line: keep it until the line is
    /// shown (written out, drawn), and the command waits meanwhile, so output faster than it can
    /// be shown paces the command rather than piling up in memory.
    public var event: @Sendable (FlowEvent, _ hold: (any AnyObject & Sendable)?) -> Void = { _, _ in }
    /// A service passed its readiness check.
    public var serviceReady: @Sendable (FlowServiceReady) -> Void = { _ in }
    /// A service could not bind its port and is started again on another.
    public var serviceMoved: @Sendable (FlowServiceMove) -> Void = { _ in }
    /// A message for the user, one or more whole lines (`flow run` writes them to stderr): the
    /// run's warnings first, then problems of its setup, reports and journal. With an observer
    /// they are not in `FlowOutcome.messages`.
    public var message: @Sendable (String) -> Void = { _ in }
    /// The steps are about to start (services are ready): the moment to start a live view.
    public var stepsStarting: @Sendable () -> Void = {}
    /// The steps have ended; called before the reports are written and the run's journal is
    /// finished, and awaited: the moment to stop a live view and flush output.
    public var finishing: @Sendable () async -> Void = {}

    /// An observer that ignores everything; set the callbacks wanted.
    public init() {}
}
