import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// The services of one run: started together before the first step, each waited for until its
/// readiness check passes, and stopped (SIGTERM, then SIGKILL) when the run ends.
///
/// Usage: pick ports with `ServiceEndpoint.allocate`, give them to the run in `RunOptions.services`,
/// make the set (which evaluates every expression, so mistakes are setup errors), `start`, run
/// the steps, and `stop` whatever happened.
public final class ServiceSet: Sendable {
    private let launches: [ServiceLaunch]
    private let masker: SecretMasker
    private let queue = DispatchQueue(label: "flow.services")
    /// The processes started so far; `stop` ends each of them.
    private let processes = LockedBox<[ServiceProcess]>([])

    /// Evaluates every service's command, environment and readiness check with `options` (its
    /// `services` endpoints included). Fails, naming each place, when an expression cannot be
    /// evaluated or a service has no endpoint.
    public init(workflow: Workflow, options: RunOptions) throws(RunSetupError) {
        launches = try ServiceLaunch.prepare(workflow: workflow, options: options)
        masker = options.secrets.masker
    }

    /// Whether there is nothing to start.
    public var isEmpty: Bool { launches.isEmpty }

    /// Starts every service and succeeds, in declaration order, once all are ready. Fails with a
    /// `ServiceError` as soon as one exits, cannot start, or is not ready within its timeout (the
    /// others are then no longer waited for; call `stop` to end them). Cancelling stops the
    /// waiting, not the processes.
    public func start(client: HTTPClient) -> Future<[ServiceReady]> {
        // Before anything starts: a check that passes already would pass against someone else.
        if let taken = launches.first(where: Self.alreadyAnswered) {
            return Future.failed(
                ServiceError(
                    service: taken.service.name, location: taken.service.location,
                    reason: "cannot start: \(taken.check.target) already answers before the service started "
                        + "(another process listens there, perhaps one left by an earlier run)",
                    lastLines: [], printedNothing: false),
                on: queue)
        }
        let started = launches.map { ServiceProcess($0, queue: queue) }
        processes.withLock { $0 += started }
        return Future.all(started.map { readiness(of: $0, client: client) }, on: queue)
    }

    /// Stops every started service and completes once all have exited.
    public func stop() -> Future<Void> {
        let started = processes.withLock { $0 }
        return Future.all(started.map { $0.stop(on: queue) }, on: queue).map { _ in () }
    }

    /// How long a service must keep running once its check passed to count as ready: one that
    /// exits at once (it could not bind its port, and something else answered the check) fails.
    static let settle = Duration.milliseconds(250)

    /// Whether something already answers where `launch` will be checked, before it started: the
    /// check would pass against that (a process left by an earlier run), not the service.
    private static func alreadyAnswered(_ launch: ServiceLaunch) -> Bool {
        guard let port = launch.check.loopbackPort else { return false }
        return ReadinessProbe.accepts(port: port)
    }

    private func readiness(of process: ServiceProcess, client: HTTPClient) -> Future<ServiceReady> {
        let launch = process.launch
        let service = launch.service
        let masker = masker
        let began = ContinuousClock.now
        let promise = Promise<ServiceReady>(on: queue)
        let readyAt = LockedBox<ContinuousClock.Instant?>(nil)
        let probe = ReadinessProbe.poll(launch.check, client: client, queue: queue).timeout(after: service.timeout)
        @Sendable func failure(_ reason: String) -> ServiceError {
            ServiceError(
                service: service.name, location: service.location, reason: masker(reason),
                lastLines: process.lastLines.map { masker($0) })
        }
        let queue = queue
        probe.whenComplete(on: queue) { result in
            switch result {
            case .success:
                let now = ContinuousClock.now
                readyAt.withLock { $0 = now }
                let ready = ServiceReady(
                    name: service.name, url: launch.endpoint.url, port: launch.endpoint.port, check: launch.check,
                    pid: process.pid, duration: now - began)
                // Still running a moment later, or it was not the service that answered.
                queue.asyncAfter(deadline: .now() + Self.settle.dispatchInterval) { promise.succeed(ready) }
            case .failure(FutureError.timedOut):
                promise.fail(
                    failure(
                        "was not ready after \(DurationSyntax.format(service.timeout)) "
                            + "(waiting until \(launch.check))"))
            case .failure(let error):
                promise.fail(error)
            }
        }
        process.exit.whenComplete(on: queue) { result in
            guard !promise.isCompleted else { return }
            probe.cancel()
            switch result {
            case .success(let outcome):
                let how =
                    outcome.signal.map { "was killed by signal \($0)" } ?? "exited with code \(outcome.exitCode)"
                if readyAt.withLock({ $0 }) != nil {
                    promise.fail(
                        failure(
                            "\(how) right after its check passed (\(launch.check)): something else answered "
                                + "there, not the service"))
                } else {
                    promise.fail(failure("\(how) before it was ready"))
                }
            case .failure(let error as ProcessLaunchError):
                promise.fail(failure(error.description))
            case .failure(let error):
                promise.fail(error)
            }
        }
        promise.onCancel { probe.cancel() }
        return promise.future
    }
}

/// A service that passed its readiness check.
public struct ServiceReady: Sendable {
    /// The service's name.
    public let name: String
    /// `http://127.0.0.1:<port>`.
    public let url: String
    /// Its port.
    public let port: Int
    /// The check that passed.
    public let check: ReadinessCheck
    /// Its process id (also its process group id).
    public let pid: pid_t
    /// How long it took from the start to ready.
    public let duration: Duration
}

/// A service that exited early, could not start, or was not ready in time.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The service's name.
    public let service: String
    /// Where the service is declared.
    public let location: SourceLocation
    /// What happened: "exited with code 3 before it was ready", "was not ready after 30s (…)".
    public let reason: String
    /// The last lines the service printed, secrets masked.
    public let lastLines: [String]
    /// Whether to say "it printed nothing" when there are no lines (not for a service that never
    /// started).
    var printedNothing = true

    init(service: String, location: SourceLocation, reason: String, lastLines: [String], printedNothing: Bool = true) {
        self.service = service
        self.location = location
        self.reason = reason
        self.lastLines = lastLines
        self.printedNothing = printedNothing
    }

    /// `service 'x' exited with code 3 before it was ready`, then its last lines.
    public var description: String {
        var text = "service '\(service)' \(reason)"
        if lastLines.isEmpty {
            if printedNothing { text += "; it printed nothing" }
        } else {
            text += "; its last output:\n" + lastLines.map { "  | \($0)" }.joined(separator: "\n")
        }
        return text
    }
}
