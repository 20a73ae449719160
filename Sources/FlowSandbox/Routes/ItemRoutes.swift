internal import Hummingbird
internal import NIOConcurrencyHelpers

/// For `for-each` workflows and their tests: a list of items, and a slow endpoint that counts how
/// many requests it holds at once (the concurrency a client really used) and how many of them the
/// client hung up on (the losers of a race, really cancelled).
///
/// - `GET /items/:n` → `{"count": n, "items": ["item-0", …]}` (n up to 100,000).
/// - `GET /held/:name/:ms` holds the request `ms` milliseconds (less if the client hangs up) and
///   answers `{"held": ms, "name": name}`; a path ending `/fail` answers 500 after the wait.
/// - `GET /held/:name` → `{"active", "max", "total", "hungUp"}` for that name, so tests running in
///   parallel do not see each other's counts.
enum ItemRoutes {
    static let maximumItems = 100_000

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.get("items/:n") { _, context in items(context) }
        router.get("held/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            return JSONResponse.make(state.held.snapshot(name))
        }
        router.get("held/:name/:ms") { _, context in await hold(context, state: state, fail: false) }
        router.get("held/:name/:ms/fail") { _, context in await hold(context, state: state, fail: true) }
    }

    private struct Items: Encodable {
        var count: Int
        var items: [String]
    }

    private static func items(_ context: SandboxContext) -> Response {
        guard let count = context.parameters.get("n", as: Int.self), (0...maximumItems).contains(count) else {
            return JSONResponse.error("n must be a number of items up to \(maximumItems)", status: .badRequest)
        }
        return JSONResponse.make(Items(count: count, items: (0..<count).map { "item-\($0)" }))
    }

    private static func hold(_ context: SandboxContext, state: SandboxState, fail: Bool) async -> Response {
        let name = context.parameters.get("name") ?? ""
        guard let milliseconds = context.parameters.get("ms", as: Int.self), (0...600_000).contains(milliseconds)
        else {
            return JSONResponse.error("the hold must be a number of milliseconds up to 600000", status: .badRequest)
        }
        state.held.begin(name)
        var hungUp = false
        if let connection = context.connection {
            hungUp = await connection.waitForHangUp(upTo: .milliseconds(milliseconds))
        } else {
            try? await Task.sleep(for: .milliseconds(milliseconds))
        }
        state.held.end(name, hungUp: hungUp)
        if hungUp, let entry = context.entry { state.events.disconnected(entry) }
        if fail { return JSONResponse.error("failed on purpose after \(milliseconds)ms", status: .internalServerError) }
        return JSONResponse.make(["held": "\(milliseconds)", "name": name])
    }
}

/// The counts of `GET /held/:name/:ms` by name.
final class HeldCounters: Sendable {
    /// One name's counts.
    struct Counts: Encodable, Sendable {
        /// Requests held now.
        var active = 0
        /// The most held at once.
        var max = 0
        /// Requests that arrived.
        var total = 0
        /// Requests whose client hung up before the hold ended.
        var hungUp = 0
    }

    private let counts = NIOLockedValueBox([String: Counts]())

    func begin(_ name: String) {
        counts.withLockedValue { counts in
            var entry = counts[name] ?? Counts()
            entry.active += 1
            entry.total += 1
            entry.max = Swift.max(entry.max, entry.active)
            counts[name] = entry
        }
    }

    func end(_ name: String, hungUp: Bool) {
        counts.withLockedValue { counts in
            counts[name]?.active -= 1
            if hungUp { counts[name]?.hungUp += 1 }
        }
    }

    func snapshot(_ name: String) -> Counts {
        counts.withLockedValue { $0[name] ?? Counts() }
    }

    func reset() {
        counts.withLockedValue { $0 = [:] }
    }
}
