import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// The services of one run: started together before the first step, each waited for until its
/// readiness check passes, and stopped (SIGTERM, then SIGKILL) when the run ends.
///
/// Usage: pick ports with `ServiceEndpoint.allocate`, make the set with them in
/// `RunOptions.services` (which evaluates every expression, so mistakes are setup errors), `start`,
/// give the run the ports the services ended on (`endpoints`: a service whose port was taken was
/// started again on another), run the steps, and `stop` whatever happened.
package final class ServiceSet: Sendable {
    private let workflow: Workflow
    private let masker: SecretMasker
    private let queue = DispatchQueue(label: "flow.services")
    /// The processes started so far; `stop` ends each of them.
    private let processes = LockedBox<[ServiceProcess]>([])
    /// The options the launches were evaluated with (their ports) and the launches, in declaration
    /// order; both change when a service moves to another port.
    private let state: LockedBox<(options: RunOptions, launches: [ServiceLaunch], tried: Set<Int>)>

    /// How many ports a service whose port flow picked is started on before its failure to bind
    /// one fails the run.
    static let attempts = 3

    /// Evaluates every service's command, environment and readiness check with `options` (its
    /// `services` endpoints included). Fails, naming each place, when an expression cannot be
    /// evaluated or a service has no endpoint.
    package init(workflow: Workflow, options: RunOptions) throws(RunSetupError) {
        self.workflow = workflow
        let launches = try ServiceLaunch.prepare(workflow: workflow, options: options)
        state = LockedBox((options, launches, Set(options.services.values.map(\.port))))
        masker = options.secrets.masker
    }

    /// Whether there is nothing to start.
    package var isEmpty: Bool { state.withLock { $0.launches.isEmpty } }

    /// Every service's endpoint as it stands: after `start`, the ports the services listen on.
    package var endpoints: [String: ServiceEndpoint] { state.withLock { $0.options.services } }

    /// Starts every service and succeeds, in declaration order, once all are ready. A service
    /// whose port flow picked and that could not bind it (it said "address already in use", or
    /// something else answered its check) is started again on a fresh port, up to `attempts`
    /// ports, and `onMove` is told each time; the services that read its port (in their command,
    /// `env` or check) are stopped and started again with the new one. Fails with a
    /// `ServiceError` as soon as one exits, cannot start, or is not ready within its timeout (the
    /// others are then no longer waited for; call `stop` to end them). Cancelling stops the
    /// waiting, not the processes.
    package func start(
        client: HTTPClient, onMove: @escaping @Sendable (ServiceMove) -> Void = { _ in }
    ) -> Future<[ServiceReady]> {
        // Before anything starts: a check that passes already would pass against someone else.
        // Nothing runs yet, so a move here just evaluates the services that read the port again.
        var attempts: [String: Int] = [:]
        for name in state.withLock({ $0.launches.map(\.service.name) }) {
            var attempt = 1
            while let launch = launch(named: name), Self.alreadyAnswered(launch) {
                let reason = "\(launch.check.target) already answers before the service started"
                guard attempt < Self.attempts, case .moved(let next, _) = move(launch) else {
                    return Future.failed(
                        ServiceError(
                            service: launch.service.name, location: launch.service.location,
                            reason: "cannot start: \(reason) (another process listens there, perhaps one left by "
                                + "an earlier run)" + (attempt > 1 ? "; tried \(attempt) ports" : ""),
                            lastLines: [], printedNothing: false),
                        on: queue)
                }
                onMove(ServiceMove(launch, to: next, attempt: attempt, reason: reason, restarting: []))
                attempt += 1
            }
            attempts[name] = attempt
        }
        let launches = state.withLock { $0.launches }
        return ServiceStartup(services: self, client: client, queue: queue, onMove: onMove)
            .begin(launches.map { ($0, attempts[$0.service.name] ?? 1) })
    }

    /// The launch of the service `name` as it stands (its latest ports).
    func launch(named name: String) -> ServiceLaunch? {
        state.withLock { $0.launches.first { $0.service.name == name } }
    }

    /// Starts `launch`'s process, kept so that `stop` ends it, and waits until it is ready.
    func started(_ launch: ServiceLaunch, client: HTTPClient) -> (ServiceProcess, Future<ServiceReady>) {
        let process = ServiceProcess(
            launch, queue: queue, groups: state.withLock { $0.options.processGroups })
        processes.withLock { $0.append(process) }
        return (process, readiness(of: process, client: client))
    }

    /// Where a service goes when its port is taken: to a fresh port, with the other services
    /// that read it evaluated again (to be started again), or nowhere, and why.
    enum Move {
        case moved(ServiceLaunch, dependents: [ServiceLaunch])
        case fixed(String)
    }

    /// Picks a fresh port for `launch`'s service and evaluates the services again with it. The
    /// service can move only when its own command reads the port (else its port is one the
    /// author wrote); the other services whose command, environment or check changed with it
    /// read its port, and are the move's dependents.
    func move(_ launch: ServiceLaunch) -> Move {
        let name = launch.service.name
        return state.withLock { state in
            guard let endpoint = try? ServiceEndpoint.fresh(for: name, avoiding: state.tried) else {
                return .fixed("no free port left on 127.0.0.1")
            }
            var options = state.options
            options.services[name] = endpoint
            guard let launches = try? ServiceLaunch.prepare(workflow: workflow, options: options),
                let next = launches.first(where: { $0.service.name == name })
            else { return .fixed("its expressions cannot be evaluated with another port") }
            guard next.spec != launch.spec else {
                return .fixed(
                    "its port is fixed in the workflow (its command does not read ${{ services.\(name).port }} "
                        + "or ${{ services.\(name).url }})")
            }
            let before = Dictionary(state.launches.map { ($0.service.name, $0) }) { first, _ in first }
            let dependents = launches.filter { other in
                other.service.name != name
                    && (before[other.service.name].map { $0.spec != other.spec || $0.check != other.check } ?? false)
            }
            state.options = options
            state.launches = launches
            state.tried.insert(endpoint.port)
            return .moved(next, dependents: dependents)
        }
    }

    /// Stops every started service and completes once all have exited.
    package func stop() -> Future<Void> {
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
        @Sendable func failure(_ reason: String, portTaken: Bool = false) -> ServiceError {
            var error = ServiceError(
                service: service.name, location: service.location, reason: masker(reason),
                lastLines: process.lastLines.map { masker($0) })
            error.portTaken = portTaken
            return error
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
                        "was not ready after \(DurationFormat.text(service.timeout, .written)) "
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
                                + "there, not the service",
                            portTaken: true))
                } else {
                    promise.fail(
                        failure(
                            "\(how) before it was ready",
                            portTaken: ServiceError.saysPortTaken(process.lastLines)))
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
package struct ServiceReady: Sendable {
    /// The service's name.
    package let name: String
    /// `http://127.0.0.1:<port>`.
    package let url: String
    /// Its port.
    package let port: Int
    /// The check that passed.
    package let check: ReadinessCheck
    /// Its process id (also its process group id).
    package let pid: pid_t
    /// How long it took from the start to ready.
    package let duration: Duration
}

/// A service started again on another port because its port was taken.
package struct ServiceMove: Sendable {
    /// The service's name.
    package let name: String
    /// The port it could not bind.
    package let from: Int
    /// The port it is started on now.
    package let to: Int
    /// The attempt that failed (1 for the first start).
    package let attempt: Int
    /// How many ports are tried at most.
    package let attempts = ServiceSet.attempts
    /// Why the port counts as taken.
    package let reason: String

    /// The services that read its port, stopped and started again with the new one.
    package let restarting: [String]

    init(_ launch: ServiceLaunch, to next: ServiceLaunch, attempt: Int, reason: String, restarting: [String]) {
        name = launch.service.name
        from = launch.endpoint.port
        to = next.endpoint.port
        self.attempt = attempt
        self.reason = reason
        self.restarting = restarting
    }
}

/// A service that exited early, could not start, or was not ready in time.
package struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The service's name.
    package let service: String
    /// Where the service is declared.
    package let location: SourceLocation
    /// What happened: "exited with code 3 before it was ready", "was not ready after 30s (…)".
    package let reason: String
    /// The last lines the service printed, secrets masked.
    package let lastLines: [String]
    /// Whether to say "it printed nothing" when there are no lines (not for a service that never
    /// started).
    var printedNothing = true
    /// Whether it failed because its port was taken: it said so ("address already in use"), or it
    /// exited right after something else answered its check.
    var portTaken = false

    /// Whether a service's output says it could not bind its port (Python's `[Errno 98]`, Node's
    /// `EADDRINUSE`, the C library's "Address already in use").
    static func saysPortTaken(_ lines: [String]) -> Bool {
        lines.contains { line in
            let lower = line.lowercased()
            return lower.contains("address already in use") || lower.contains("errno 98")
                || lower.contains("eaddrinuse")
        }
    }

    /// The same error with `text` added to its reason.
    func adding(_ text: String) -> ServiceError {
        var error = ServiceError(
            service: service, location: location, reason: reason + text, lastLines: lastLines,
            printedNothing: printedNothing)
        error.portTaken = portTaken
        return error
    }

    init(service: String, location: SourceLocation, reason: String, lastLines: [String], printedNothing: Bool = true) {
        self.service = service
        self.location = location
        self.reason = reason
        self.lastLines = lastLines
        self.printedNothing = printedNothing
    }

    /// `service 'x' exited with code 3 before it was ready`, then its last lines.
    package var description: String {
        var text = "service '\(service)' \(reason)"
        if lastLines.isEmpty {
            if printedNothing { text += "; it printed nothing" }
        } else {
            text += "; its last output:\n" + lastLines.map { "  | \($0)" }.joined(separator: "\n")
        }
        return text
    }
}
