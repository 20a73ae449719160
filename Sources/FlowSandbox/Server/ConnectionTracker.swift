internal import NIOCore
import Synchronization

/// The open connections, found by their channel, so request handlers can see a client hang up.
final class ConnectionRegistry: Sendable {
    private struct State {
        var count = 0
        var open: [ObjectIdentifier: Connection] = [:]
    }

    private let state = Mutex(State())

    /// The connection for a channel; one the pipeline has not announced yet gets a fresh number.
    func connection(for channel: any Channel) -> Connection {
        connection(for: ObjectIdentifier(channel))
    }

    fileprivate func connection(for key: ObjectIdentifier) -> Connection {
        state.withLock { state in
            if let known = state.open[key] { return known }
            state.count += 1
            let connection = Connection(id: state.count)
            state.open[key] = connection
            return connection
        }
    }

    fileprivate func remove(_ key: ObjectIdentifier) {
        _ = state.withLock { $0.open.removeValue(forKey: key) }
    }
}

/// Sits in each connection's pipeline and tells its `Connection` when the client hangs up.
///
/// Hummingbird enables half-closure, so a client that closes its socket shows first as an
/// `inputClosed` event, not as an inactive channel; both count as hanging up.
final class ConnectionTracker: ChannelInboundHandler, RemovableChannelHandler {
    // Never unwrapped: reads pass through untouched.
    typealias InboundIn = Never

    private let registry: ConnectionRegistry
    private var connection: Connection?
    private var key: ObjectIdentifier?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let key = ObjectIdentifier(context.channel)
        self.key = key
        connection = registry.connection(for: key)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            connection?.markHungUp()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    private func finish() {
        connection?.markHungUp()
        if let key { registry.remove(key) }
        key = nil
    }
}
