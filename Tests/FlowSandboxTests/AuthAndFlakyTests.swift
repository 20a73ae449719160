import FlowSandbox
import Foundation
import Testing

@Suite struct AuthAndFlakyTests {
    @Test func apiNeedsABearerTokenFromLogin() async throws {
        try await withSandbox { sandbox in
            let anonymous = try await HTTP.send("GET", sandbox.baseURL + "/api/users")
            #expect(anonymous.status == 401)
            let forged = try await HTTP.send(
                "GET",
                sandbox.baseURL + "/api/reports",
                headers: ["Authorization": "Bearer not-a-token"]
            )
            #expect(forged.status == 401)

            let wrong = try await HTTP.send(
                "POST",
                sandbox.baseURL + "/login",
                headers: ["Content-Type": "application/json"],
                body: Data(#"{"user":"demo","password":"nope"}"#.utf8)
            )
            #expect(wrong.status == 401)

            let login = try await HTTP.send(
                "POST",
                sandbox.baseURL + "/login",
                headers: ["Content-Type": "application/json"],
                body: Data(#"{"user":"demo","password":"s3cret"}"#.utf8)
            )
            #expect(login.status == 200)
            let token = try #require(try login.object()["token"] as? String)

            let users = try await HTTP.send(
                "GET",
                sandbox.baseURL + "/api/users",
                headers: ["Authorization": "Bearer \(token)"]
            )
            #expect(users.status == 200)
            #expect(try users.array().count == 3)
            let reports = try await HTTP.send(
                "GET",
                sandbox.baseURL + "/api/reports",
                headers: ["Authorization": "Bearer \(token)"]
            )
            #expect(reports.status == 200)
            #expect(try reports.array().first?["userId"] as? Int == 1)
        }
    }

    @Test func loginRefusesABodyThatIsNotCredentials() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("POST", sandbox.baseURL + "/login", body: Data("user=demo".utf8))
            #expect(reply.status == 400)
            #expect(try reply.object()["error"] as? String != nil)
        }
    }

    @Test func anOversizedLoginBodyIsRefusedWith413() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("POST", sandbox.baseURL + "/login", body: Data(count: 2 << 20))
            #expect(reply.status == 413)
            let events = try await waitForEvents(sandbox) { $0.last?.endedAt != nil }
            #expect(events.last?.status == 413)
        }
    }

    @Test(arguments: ["/import", "/notify"])
    func importAndNotifyAcceptAnyBody(path: String) async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("POST", sandbox.baseURL + path, body: Data(#"{"file":"x"}"#.utf8))
            #expect(reply.status == 202)
            #expect(try reply.object()["accepted"] as? Int == 12)
            #expect(sandbox.events().last?.bytesReceived == 12)
        }
    }

    @Test func flakyFailsNTimesPerKeyThenSucceeds() async throws {
        try await withSandbox { sandbox in
            let url = sandbox.baseURL + "/flaky/a?fail=2&status=503&retry-after=1"
            let first = try await HTTP.send("GET", url)
            #expect(first.status == 503)
            #expect(first.headers["retry-after"] == "1")
            let other = try await HTTP.send("GET", sandbox.baseURL + "/flaky/b?fail=1&status=500")
            #expect(other.status == 500)
            #expect(try await HTTP.send("GET", url).status == 503)
            let third = try await HTTP.send("GET", url)
            #expect(third.status == 200)
            #expect(try third.object()["attempt"] as? Int == 3)
            #expect(try await HTTP.send("GET", sandbox.baseURL + "/flaky/b?fail=1&status=500").status == 200)

            sandbox.reset()
            #expect(try await HTTP.send("GET", url).status == 503)
        }
    }

    @Test func mirrorAnswersItsNameWithTheStatusAndDelayAsked() async throws {
        try await withSandbox { sandbox in
            let started = ContinuousClock.now
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/mirror/eu?ms=150&status=502")
            #expect(reply.status == 502)
            #expect(try reply.object()["mirror"] as? String == "eu")
            #expect(ContinuousClock.now - started >= .milliseconds(150))
        }
    }
}
