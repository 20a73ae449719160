import Foundation
import Testing

/// Issue 32, the slow link: two requests that both need `login`, to its host, go out together
/// when it ends; HTTP/1.1 carries one request at a time on a connection, so one of them needs a
/// second connection. flow opens it while `login` runs, so it costs no round trip after `login`.
/// The server sees the order (no timing is asserted): the second connection is accepted before
/// the answer to `/login` leaves, and each connection carries a request.
@Suite struct ConnectionsAheadTests {
    private func run(_ steps: String, server: ConnectionLogServer) async throws -> [ConnectionLogServer.Entry] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-ahead-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        version: 1
        defaults:
          http: { base-url: "\(server.baseURL)" }
        steps:
        \(steps)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path, "--no-journal"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        return server.entries
    }

    @Test func theParallelPairsSecondConnectionIsOpenedWhileLoginRuns() async throws {
        // Holds `/login`'s answer until a second connection comes, and the pair's answers until both
        // arrived: 5 s at most (a bound, not a wait).
        let server = try ConnectionLogServer(holdLoginFor: 2, holdLimit: .seconds(5), together: ["/users", "/reports"])
        defer { server.stop() }
        let entries = try await run(
            """
              login: { http: { url: /login } }
              users: { needs: login, http: { url: /users } }
              reports: { needs: login, http: { url: /reports } }
            """, server: server)
        #expect(entries.contains(.loginAnswered(connectionsAccepted: 2)), "\(entries)")
        var connectionOf: [String: Int] = [:]
        for case .request(let connection, _, let path) in entries { connectionOf[path] = connection }
        #expect(connectionOf["/users"] != connectionOf["/reports"], "\(entries)")
        // Nothing opened for nothing: two connections, each carrying a request.
        let accepted = entries.filter { if case .accepted = $0 { true } else { false } }.count
        #expect(accepted == 2, "\(entries)")
        #expect(Set(connectionOf.values).count == 2, "\(entries)")
    }

    @Test func noConnectionIsOpenedAheadForASingleDependentOrAConditionalOne() async throws {
        // A connection opened ahead would show within the 300 ms the login answer is held.
        let server = try ConnectionLogServer(holdLoginFor: 2, holdLimit: .milliseconds(300))
        defer { server.stop() }
        let entries = try await run(
            """
              login: { http: { url: /login } }
              users: { needs: login, http: { url: /users } }
              reports: { needs: login, if: "${{ steps.login.status == 'failed' }}", http: { url: /reports } }
            """, server: server)
        #expect(entries.contains(.loginAnswered(connectionsAccepted: 1)), "\(entries)")
        let accepted = entries.filter { if case .accepted = $0 { true } else { false } }.count
        #expect(accepted == 1, "\(entries)")
    }
}
