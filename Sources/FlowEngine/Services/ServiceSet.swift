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
        let started = launches.map { ServiceProcess($0, queue: queue) }
        processes.withLock { $0 += started }
        return Future.all(started.map { readiness(of: $0, client: client) }, on: queue)
    }

    /// Stops every started service and completes once all have exited.
    public func stop() -> Future<Void> {
        let started = processes.withLock { $0 }
        return Future.all(started.map { $0.stop(on: queue) }, on: queue).map { _ in () }
    }

    private func readiness(of process: ServiceProcess, client: HTTPClient) -> Future<ServiceReady> {
        let launch = process.launch
        let service = launch.service
        let masker = masker
        let began = ContinuousClock.now
        let promise = Promise<ServiceReady>(on: queue)
        let probe = ReadinessProbe.poll(launch.check, client: client, queue: queue).timeout(after: service.timeout)
        @Sendable func failure(_ reason: String) -> ServiceError {
            ServiceError(
                service: service.name, location: service.location, reason: masker(reason),
                lastLines: process.lastLines.map { masker($0) })
        }
        probe.whenComplete(on: queue) { result in
            switch result {
            case .success:
                promise.succeed(
                    ServiceReady(
                        name: service.name, url: launch.endpoint.url, port: launch.endpoint.port, check: launch.check,
                        pid: process.pid, duration: ContinuousClock.now - began))
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
                promise.fail(failure("\(how) before it was ready"))
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

    /// `service 'x' exited with code 3 before it was ready`, then its last lines.
    public var description: String {
        var text = "service '\(service)' \(reason)"
        if lastLines.isEmpty {
            text += "; it printed nothing"
        } else {
            text += "; its last output:\n" + lastLines.map { "  | \($0)" }.joined(separator: "\n")
        }
        return text
    }
}
