import Foundation
internal import Hummingbird
internal import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import ServiceLifecycle

/// A running local HTTP API for demos, tests and benchmarks; see "flow sandbox — endpoints" in README.md.
package final class Sandbox: Sendable {
    /// The TCP port the sandbox listens on.
    package let port: Int
    /// The address to send requests to, e.g. `http://127.0.0.1:8089`.
    package let baseURL: String

    private let state: SandboxState
    private let serviceGroup: ServiceGroup
    private let running: Task<Void, Never>
    private let storage: String
    private let ownsStorage: Bool
    private let stopped = NIOLockedValueBox(false)

    /// How long `stop()` lets requests in flight finish before cancelling them.
    static let stopGracePeriod = Duration.seconds(2)

    private init(
        port: Int,
        host: String,
        state: SandboxState,
        serviceGroup: ServiceGroup,
        running: Task<Void, Never>,
        storage: String,
        ownsStorage: Bool
    ) {
        self.port = port
        self.baseURL = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        self.state = state
        self.serviceGroup = serviceGroup
        self.running = running
        self.storage = storage
        self.ownsStorage = ownsStorage
    }

    /// Starts a sandbox and returns once it accepts connections; throws if the address cannot be bound.
    package static func start(_ configuration: SandboxConfiguration = .init()) async throws -> Sandbox {
        let (storage, ownsStorage) = try prepareStorage(configuration.storageDirectory)
        let state = SandboxState(storageDirectory: storage, recordsBodies: configuration.recordsBodies)
        let router = Router(context: SandboxContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: EventLogMiddleware(events: state.events, connections: state.connections))
        SandboxRoutes.register(on: router, state: state)

        var logger = Logger(label: "flow.sandbox")
        logger.logLevel = .critical
        let (bound, boundContinuation) = AsyncStream<Int>.makeStream()
        let registry = state.connections
        let application = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionTracker(registry: registry)])),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: nil,
                // Tests open a thousand connections at once; the default 256 would make some wait a second.
                backlog: 4096
            ),
            onServerRunning: { channel in
                boundContinuation.yield(channel.localAddress?.port ?? 0)
                boundContinuation.finish()
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
        // Stopping must not wait out a long `/delay`: requests still running after this are cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = Self.stopGracePeriod
        groupConfiguration.maximumCancellationDuration = Self.stopGracePeriod
        let serviceGroup = ServiceGroup(configuration: groupConfiguration)
        let failure = NIOLockedValueBox<(any Error)?>(nil)
        let running = Task {
            do {
                try await serviceGroup.run()
            } catch {
                failure.withLockedValue { $0 = error }
            }
            boundContinuation.finish()
        }
        var iterator = bound.makeAsyncIterator()
        guard let port = await iterator.next() else {
            if ownsStorage { try? FileManager.default.removeItem(atPath: storage) }
            let cause = failure.withLockedValue { $0 }.map { "\($0)" } ?? "the server stopped before it listened"
            throw SandboxError.cannotListen(host: configuration.host, port: configuration.port, reason: cause)
        }
        return Sandbox(
            port: port,
            host: configuration.host,
            state: state,
            serviceGroup: serviceGroup,
            running: running,
            storage: storage,
            ownsStorage: ownsStorage
        )
    }

    /// The requests seen since start or the last reset; what `GET /_events` returns.
    package func events() -> [SandboxEvent] {
        state.events.snapshot()
    }

    /// Forgets events, flaky counters, sessions and uploads; what `POST /_reset` does.
    package func reset() {
        state.reset()
    }

    /// Stops accepting connections, lets requests in flight finish, and removes a temporary storage folder.
    package func stop() async {
        let first = stopped.withLockedValue { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        await serviceGroup.triggerGracefulShutdown()
        await running.value
        state.uploads.closeAll()
        if ownsStorage { try? FileManager.default.removeItem(atPath: storage) }
    }

    private static func prepareStorage(_ requested: String?) throws -> (path: String, owned: Bool) {
        let manager = FileManager.default
        if let requested {
            try manager.createDirectory(atPath: requested, withIntermediateDirectories: true)
            return (requested, false)
        }
        let path = manager.temporaryDirectory
            .appendingPathComponent("flow-sandbox-\(UUID().uuidString)", isDirectory: true).path
        try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
        return (path, true)
    }
}

/// Why a sandbox could not start.
package enum SandboxError: Error, CustomStringConvertible {
    /// Binding the address failed, e.g. the port is taken.
    case cannotListen(host: String, port: Int, reason: String)

    /// A one-line explanation for the command line.
    package var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason)"
        }
    }
}
