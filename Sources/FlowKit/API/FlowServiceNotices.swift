import FlowEngine

/// A service of the run passed its readiness check (`flow run` prints a line for it); given to
/// `FlowRunObserver.serviceReady`.
///
/// ```swift
/// observer.serviceReady = { print("\($0.name) ready on \($0.url)") }
/// ```
public struct FlowServiceReady: Sendable {
    /// The service's name in `services:`.
    public let name: String
    /// Its URL, as `services.NAME.url` reads.
    public let url: String
    /// The address its readiness check polled: a port nobody listens on is never shown as ready.
    public let polled: String
    /// How long it took to become ready.
    public let duration: Duration

    init(_ ready: ServiceReady) {
        name = ready.name
        url = ready.url
        polled = ready.check.target
        duration = ready.duration
    }
}

/// A service of the run could not bind its port and is started again on another; given to
/// `FlowRunObserver.serviceMoved`.
public struct FlowServiceMove: Sendable {
    /// The service's name in `services:`.
    public let name: String
    /// The port it could not bind.
    public let from: Int
    /// The port it is started on now.
    public let to: Int
    /// Which start this is (from 0), out of `attempts`.
    public let attempt: Int
    /// How many starts it is given at most.
    public let attempts: Int
    /// Why it could not bind, its secrets masked.
    public let reason: String
    /// The services started again with it, having read its port.
    public let restarting: [String]

    init(_ move: ServiceMove, masker: SecretMasker) {
        name = move.name
        from = move.from
        to = move.to
        attempt = move.attempt
        attempts = move.attempts
        reason = masker(move.reason)
        restarting = move.restarting
    }
}
