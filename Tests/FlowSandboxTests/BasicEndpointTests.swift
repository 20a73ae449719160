import FlowSandbox
import Foundation
import Testing

@Suite struct BasicEndpointTests {
    @Test func healthAnswersOK() async throws {
        try await withSandbox { sandbox in
            #expect(sandbox.baseURL == "http://127.0.0.1:\(sandbox.port)")
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/health")
            #expect(reply.status == 200)
            #expect(try reply.object()["status"] as? String == "ok")
            #expect(reply.headers["content-type"] == "application/json")
        }
    }

    @Test func echoReturnsMethodPathQueryHeadersAndBody() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send(
                "PATCH",
                sandbox.baseURL + "/echo?name=flow&n=2",
                headers: ["X-Trace": "abc", "Content-Type": "text/plain"],
                body: Data("hello body".utf8)
            )
            #expect(reply.status == 200)
            let echo = try reply.object()
            #expect(echo["method"] as? String == "PATCH")
            #expect(echo["path"] as? String == "/echo")
            #expect(echo["query"] as? [String: String] == ["name": "flow", "n": "2"])
            #expect((echo["headers"] as? [String: String])?["x-trace"] == "abc")
            #expect(echo["body"] as? String == "hello body")
        }
    }

    @Test(arguments: [200, 204, 404, 418, 503])
    func statusAnswersTheCodeAsked(code: Int) async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/status/\(code)")
            #expect(reply.status == code)
        }
    }

    @Test func statusRefusesANonCode() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/status/teapot")
            #expect(reply.status == 400)
            #expect(try reply.object()["error"] as? String != nil)
        }
    }

    @Test func bytesAnswersExactlyNBytes() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/bytes/200000")
            #expect(reply.status == 200)
            #expect(reply.body.count == 200_000)
            #expect(reply.headers["content-length"] == "200000")
        }
    }

    @Test func headOfAGetEndpointHasTheLengthButNoBody() async throws {
        try await withSandbox { sandbox in
            let connection = try await RawConnection.open(port: sandbox.port)
            defer { connection.close() }
            try await connection.write("HEAD /bytes/1000 HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await connection.readResponse(bodyExpected: false)
            #expect(head?.status == 200)
            #expect(head?.headers["content-length"] == "1000")
            // The connection stays in step: no stray body bytes precede the next response.
            try await connection.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await connection.readResponse()?.text == #"{"status":"ok"}"#)
            let events = try await waitForEvents(sandbox) { $0.count == 2 && $0.allSatisfy { $0.endedAt != nil } }
            #expect(events.map(\.method) == ["HEAD", "GET"])
            #expect(events.map(\.status) == [200, 200])
        }
    }

    @Test func redirectsCountDownToZero() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/redirect/3")
            #expect(reply.status == 200)
            #expect(try reply.object()["redirected"] as? Bool == true)
            let events = try await waitForEvents(sandbox) { $0.count == 4 && $0.allSatisfy { $0.endedAt != nil } }
            #expect(events.map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1", "/redirect/0"])
            #expect(events.prefix(3).allSatisfy { $0.status == 302 })
        }
    }

    @Test func sinkHashesTheStreamedBody() async throws {
        try await withSandbox { sandbox in
            // The FIPS 180-2 test vector: one million "a".
            let body = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
            let reply = try await HTTP.send("PUT", sandbox.baseURL + "/sink", body: body)
            #expect(reply.status == 200)
            let digest = try reply.object()
            #expect(digest["bytes"] as? Int == 1_000_000)
            #expect(digest["sha256"] as? String == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
            #expect(sandbox.events().last?.bytesReceived == 1_000_000)
        }
    }

    @Test func delayAnswersAfterTheDelay() async throws {
        try await withSandbox { sandbox in
            let started = ContinuousClock.now
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/delay/300")
            #expect(reply.status == 200)
            #expect(ContinuousClock.now - started >= .milliseconds(300))
            let event = try #require(try await waitForEvents(sandbox) { $0.last?.endedAt != nil }.last)
            #expect(event.clientDisconnected == false)
            #expect(try #require(event.endedAt) - event.startedAt >= 0.3)
        }
    }

    @Test func unknownPathIsNotFound() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("GET", sandbox.baseURL + "/no/such/thing")
            #expect(reply.status == 404)
            let events = try await waitForEvents(sandbox) { $0.last?.endedAt != nil }
            #expect(events.last?.status == 404)
        }
    }

    @Test func twoSandboxesGetDifferentPorts() async throws {
        try await withSandbox { first in
            try await withSandbox { second in
                #expect(first.port != second.port)
                #expect(first.port > 0 && second.port > 0)
            }
        }
    }

    @Test func aTakenPortIsAClearError() async throws {
        try await withSandbox { sandbox in
            await #expect {
                _ = try await Sandbox.start(.init(port: sandbox.port))
            } throws: { error in
                "\(error)".contains("cannot listen on 127.0.0.1:\(sandbox.port)")
            }
        }
    }
}
