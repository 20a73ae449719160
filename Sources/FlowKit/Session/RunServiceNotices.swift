import FlowEngine

/// A service of the run passed its readiness check (`flow run` prints a line for it).
package struct RunServiceReady: Sendable {
    /// The service's name in `services:`.
    package let name: String
    /// Its URL, as `services.NAME.url` reads.
    package let url: String
    /// The address its readiness check polled: a port nobody listens on is never shown as ready.
    package let polled: String
    /// How long it took to become ready.
    package let duration: Duration

    init(_ ready: ServiceReady) {
        name = ready.name
        url = ready.url
        polled = ready.check.target
        duration = ready.duration
    }
}

/// A service of the run could not bind its port and is started again on another.
package struct RunServiceMove: Sendable {
    /// The service's name in `services:`.
    package let name: String
    /// The port it could not bind, and the one it is started on now.
    package let from: Int
    package let to: Int
    /// Which start this is (from 0), out of `attempts`.
    package let attempt: Int
    package let attempts: Int
    /// Why it could not bind, its secrets masked.
    package let reason: String
    /// The services started again with it, having read its port.
    package let restarting: [String]

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
