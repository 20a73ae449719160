internal import Hummingbird
internal import NIOConcurrencyHelpers

/// How many times each `/flaky/{key}` has been called.
final class FlakyCounters: Sendable {
    private let calls = NIOLockedValueBox<[String: Int]>([:])

    /// Counts one more call for `key` and returns the new count, from 1.
    func next(_ key: String) -> Int {
        calls.withLockedValue { calls in
            let count = (calls[key] ?? 0) + 1
            calls[key] = count
            return count
        }
    }

    /// Forgets every count.
    func reset() {
        calls.withLockedValue { $0 = [:] }
    }
}

/// `/flaky/{key}` (fails N times, then succeeds) and `/mirror/{name}` (for races).
enum FlakyRoutes {
    private struct Attempt: Encodable {
        var key: String
        var attempt: Int
        var ok: Bool
    }

    private struct Mirror: Encodable {
        var mirror: String
        var delayedMs: Int
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("flaky/:key", method: method) { request, context in
                _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
                return flaky(request, context: context, state: state)
            }
        }
        router.get("mirror/:name") { request, context in
            await mirror(request, context: context, state: state)
        }
    }

    private static func flaky(_ request: Request, context: SandboxContext, state: SandboxState) -> Response {
        let key = context.parameters.get("key") ?? ""
        let query = request.uri.queryParameters
        let failures = query.get("fail", as: Int.self) ?? 1
        let status = query.get("status", as: Int.self) ?? 503
        guard failures >= 0, (400...599).contains(status) else {
            return JSONResponse.error("fail must be 0 or more and status from 400 to 599", status: .badRequest)
        }
        let attempt = state.counters.next(key)
        guard attempt > failures else {
            var headers: HTTPFields = [:]
            if let retryAfter = query.get("retry-after") { headers[.retryAfter] = String(retryAfter) }
            return JSONResponse.make(
                Attempt(key: key, attempt: attempt, ok: false),
                status: .init(code: status),
                headers: headers
            )
        }
        return JSONResponse.make(Attempt(key: key, attempt: attempt, ok: true))
    }

    private static func mirror(_ request: Request, context: SandboxContext, state: SandboxState) async -> Response {
        let name = context.parameters.get("name") ?? ""
        let query = request.uri.queryParameters
        let milliseconds = query.get("ms", as: Int.self) ?? 0
        let status = query.get("status", as: Int.self) ?? 200
        guard (0...600_000).contains(milliseconds), (200...599).contains(status) else {
            return JSONResponse.error("ms must be 0 to 600000 and status 200 to 599", status: .badRequest)
        }
        if let connection = context.connection, await connection.waitForHangUp(upTo: .milliseconds(milliseconds)) {
            if let entry = context.entry { state.events.disconnected(entry) }
        }
        return JSONResponse.make(Mirror(mirror: name, delayedMs: milliseconds), status: .init(code: status))
    }
}
