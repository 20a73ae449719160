internal import HTTPTypes
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOHTTPTypes

/// The open connections, found by their channel, so request handlers can see a client hang up.
final class ConnectionRegistry: Sendable {
    private struct State {
        var count = 0
        var open: [ObjectIdentifier: Connection] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// The connection for a channel.
    ///
    /// The tracker registers a channel before its first request is read, so an unknown channel is
    /// one that already closed: it gets a fresh number, marked hung up, and is not kept.
    func connection(for channel: any Channel) -> Connection {
        let (connection, known) = state.withLockedValue { state in
            if let known = state.open[ObjectIdentifier(channel)] { return (known, true) }
            state.count += 1
            return (Connection(id: state.count), false)
        }
        if !known { connection.markHungUp() }
        return connection
    }

    fileprivate func open(_ key: ObjectIdentifier) -> Connection {
        state.withLockedValue { state in
            if let known = state.open[key] { return known }
            state.count += 1
            let connection = Connection(id: state.count)
            state.open[key] = connection
            return connection
        }
    }

    fileprivate func remove(_ key: ObjectIdentifier) {
        _ = state.withLockedValue { $0.open.removeValue(forKey: key) }
    }
}

/// Sits in each connection's pipeline: tells its `Connection` when the client hangs up, and answers
/// `Expect: 100-continue` (Hummingbird does not), so clients such as `curl -T` do not stall a second.
///
/// Hummingbird enables half-closure, so a client that closes its socket shows first as an
/// `inputClosed` event, not as an inactive channel; both count as hanging up.
final class ConnectionTracker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let registry: ConnectionRegistry
    private var connection: Connection?
    private var key: ObjectIdentifier?

    init(registry: ConnectionRegistry) {
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let key = ObjectIdentifier(context.channel)
        self.key = key
        connection = registry.open(key)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data),
            request.headerFields[.expect]?.lowercased() == "100-continue"
        {
            // Written before the request reaches the handler, so it always precedes the final response.
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
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
