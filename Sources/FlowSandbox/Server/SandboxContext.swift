internal import Hummingbird
internal import NIOCore

/// The per-request context: Hummingbird's core storage plus the connection and the event-log entry.
struct SandboxContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Kept so a handler can close the connection on purpose (`?drop-at=N`).
    let channel: any Channel
    /// Set by `EventLogMiddleware` before any route runs.
    var connection: Connection?
    /// Set by `EventLogMiddleware` before any route runs.
    var entry: EventLog.Entry?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
