/// What happens in a run, as `FlowRun.events` delivers it.
///
/// Events of the workflow's own steps come in the order the scheduler decided them. See
/// `FlowEvents` for what a slow consumer is given.
public enum FlowEvent: Sendable {
    /// A step started (a group started its children). Never dropped for the workflow's own steps.
    case stepStarted(step: String)
    /// Attempt `number` (from 1) of a step is starting; attempts after the first are retries.
    case attempt(step: String, number: Int)
    /// Bytes a step (an upload, a download) moved so far, out of `total` when known; `item` is the
    /// `for-each` item that moved them.
    case progress(step: String, item: Int?, bytes: Int64, total: Int64?)
    /// Where a `for-each` step's items stand: how many are final and how many of those failed.
    case items(step: String, finished: Int, failed: Int, total: Int)
    /// One item of a `for-each` step started or ended (see `FlowItemEvent`).
    indirect case item(FlowItemEvent)
    /// Attempt `number` (from 1) of a step with `repeat` is starting, out of at most `limit`;
    /// `previous` sums up what the attempt before gave (`status 202`), when it says.
    case repetition(step: String, number: Int, limit: Int, previous: String?)
    /// An attempt failed and the step waits `wait` before the next one.
    case retryWait(step: String, attempt: Int, wait: Duration, reason: String)
    /// A line a step's command printed (secrets masked).
    case output(step: String, line: String, isError: Bool)
    /// A step reached its final state. Never dropped for the workflow's own steps.
    indirect case stepFinished(FlowStepResult)
    /// Events the buffer dropped so far because the consumer was slow (see `FlowEvents`).
    case dropped(count: Int)
    /// The run ended; always the last event.
    indirect case runFinished(FlowOutcome)
}
