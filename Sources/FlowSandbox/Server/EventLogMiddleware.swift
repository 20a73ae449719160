internal import Hummingbird

/// Records each request's start, end, status and early hang-up in the event log.
struct EventLogMiddleware: RouterMiddleware {
    typealias Context = SandboxContext

    let events: EventLog
    let connections: ConnectionRegistry

    func handle(
        _ request: Request,
        context: SandboxContext,
        next: (Request, SandboxContext) async throws -> Response
    ) async throws -> Response {
        let connection = connections.connection(for: context.channel)
        var positions: [String: String] = [:]
        for field in request.headers {
            // canonicalName is lowercase.
            if let name = EventLog.positionHeaders.first(where: { $0.lowercased() == field.name.canonicalName }) {
                positions[name] = field.value
            }
        }
        let entry = events.begin(
            method: request.method.rawValue,
            path: request.uri.string,
            connection: connection.id,
            headers: positions
        )
        var context = context
        context.connection = connection
        context.entry = entry
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            // Thrown on purpose (a dropped connection) or by a failed body read: nothing can be sent.
            if connection.hasHungUp { events.disconnected(entry) }
            events.end(entry, status: nil)
            throw error
        }
        // Checked before writing: a client gone now cannot have had a complete response.
        if connection.hasHungUp {
            events.disconnected(entry)
            events.end(entry, status: nil)
            return response
        }
        let status = response.status.code
        // A HEAD response's body is never written, so a wrapper around it would never run.
        if request.method == .head {
            events.end(entry, status: status)
            return response
        }
        let body = response.body
        let events = self.events
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
                events.end(entry, status: status)
            } catch {
                events.disconnected(entry)
                events.end(entry, status: nil)
                throw error
            }
        }
        return response
    }
}
