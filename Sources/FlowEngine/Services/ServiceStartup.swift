import Dispatch
import FlowHTTP
import FlowTasks

/// One `ServiceSet.start`: starts every service, moves one whose port was taken to a fresh port,
/// starts again the services that read that port, and succeeds once every service is ready with
/// the ports they all ended on.
///
/// Each start of a service is a generation of it; only the result of its latest generation
/// counts, so a service stopped because another moved (its command had the old port) neither
/// fails the run by exiting nor counts as ready with the old port. State is kept in a lock and
/// changed only from the services' serial queue and the caller of `begin`.
final class ServiceStartup: Sendable {
    private struct State {
        /// The current generation of each service (bumped at each start and each restart).
        var generation: [String: Int] = [:]
        /// Each service's latest process and the wait for its readiness.
        var process: [String: ServiceProcess] = [:]
        var waiting: [String: Future<ServiceReady>] = [:]
        /// The number of the port each service is on (1 for the port first picked).
        var attempt: [String: Int] = [:]
        /// The services ready in their current generation.
        var ready: [String: ServiceReady] = [:]
        /// The services, in declaration order.
        var order: [String] = []
    }

    private let services: ServiceSet
    private let client: HTTPClient
    private let queue: DispatchQueue
    private let onMove: @Sendable (ServiceMove) -> Void
    private let promise: Promise<[ServiceReady]>
    private let state = LockedBox(State())

    init(
        services: ServiceSet, client: HTTPClient, queue: DispatchQueue,
        onMove: @escaping @Sendable (ServiceMove) -> Void
    ) {
        self.services = services
        self.client = client
        self.queue = queue
        self.onMove = onMove
        promise = Promise(on: queue)
        let state = state
        promise.onCancel {
            for waiting in state.withLock({ Array($0.waiting.values) }) { waiting.cancel() }
        }
    }

    /// Starts every launch (with the number of the port it is on) and completes once all are
    /// ready, in the order given, or as soon as one fails for good.
    func begin(_ launches: [(ServiceLaunch, attempt: Int)]) -> Future<[ServiceReady]> {
        state.withLock { $0.order = launches.map(\.0.service.name) }
        if launches.isEmpty { promise.succeed([]) }
        for (launch, attempt) in launches { start(launch, attempt: attempt) }
        return promise.future
    }

    /// Starts a new generation of `launch`'s service.
    private func start(_ launch: ServiceLaunch, attempt: Int) {
        guard !promise.isCompleted else { return }
        let name = launch.service.name
        let (process, waiting) = services.started(launch, client: client)
        let generation = state.withLock { state in
            let generation = (state.generation[name] ?? 0) + 1
            state.generation[name] = generation
            state.process[name] = process
            state.waiting[name] = waiting
            state.attempt[name] = attempt
            return generation
        }
        // Cancelled or failed while the process started: its wait was not there to cancel.
        if promise.isCompleted { waiting.cancel() }
        waiting.whenComplete(on: queue) { result in
            self.finished(launch, generation: generation, attempt: attempt, result: result)
        }
    }

    private func finished(
        _ launch: ServiceLaunch, generation: Int, attempt: Int, result: Result<ServiceReady, any Error>
    ) {
        let name = launch.service.name
        guard state.withLock({ $0.generation[name] == generation }), !promise.isCompleted else { return }
        switch result {
        case .success(let ready):
            let all: [ServiceReady]? = state.withLock { state in
                state.ready[name] = ready
                return state.ready.count == state.order.count ? state.order.compactMap { state.ready[$0] } : nil
            }
            if let all { promise.succeed(all) }
        case .failure(let error):
            guard let failure = error as? ServiceError, failure.portTaken else { return fail(error) }
            guard attempt < ServiceSet.attempts else { return fail(failure.adding("; tried \(attempt) ports")) }
            switch services.move(launch) {
            case .fixed(let why):
                fail(failure.adding("; flow cannot start it on another port: \(why)"))
            case .moved(let next, let dependents):
                onMove(
                    ServiceMove(
                        launch, to: next, attempt: attempt, reason: failure.reason,
                        restarting: dependents.map(\.service.name)))
                start(next, attempt: attempt + 1)
                for dependent in dependents { restart(dependent.service.name) }
            }
        }
    }

    /// Stops the service `name`, which was started with a port that has moved, and starts it
    /// again, once its old process has exited (it may hold its own port), with the ports as
    /// they stand then.
    private func restart(_ name: String) {
        let (process, waiting, generation) = state.withLock { state in
            let generation = (state.generation[name] ?? 0) + 1
            state.generation[name] = generation
            state.ready[name] = nil
            defer { state.waiting[name] = nil }
            return (state.process[name], state.waiting[name], generation)
        }
        waiting?.cancel()
        let stopped = process?.stop(on: queue) ?? .succeeded((), on: queue)
        stopped.whenComplete(on: queue) { _ in
            let attempt: Int? = self.state.withLock { state in
                state.generation[name] == generation ? state.attempt[name] ?? 1 : nil
            }
            guard let attempt, let launch = self.services.launch(named: name) else { return }
            self.start(launch, attempt: attempt)
        }
    }

    /// Fails the start and stops waiting for the others.
    private func fail(_ error: any Error) {
        guard promise.fail(error) else { return }
        for waiting in state.withLock({ Array($0.waiting.values) }) { waiting.cancel() }
    }
}
