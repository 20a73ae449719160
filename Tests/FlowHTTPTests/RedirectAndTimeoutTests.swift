import FlowHTTP
import FlowTasks
import Foundation
import Testing

@Suite struct RedirectAndTimeoutTests {
    @Test func redirectsAreFollowed() async throws {
        try await withSandbox { sandbox, client in
            let response = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/redirect/3")).value
            #expect(response.status == 200)
            #expect(response.effectiveURL == sandbox.baseURL + "/redirect/0")
            #expect(try json(response)["redirected"] as? Bool == true)
            #expect(response.headers["location"] == nil, "the headers are the final response's")
            #expect(sandbox.events().map(\.path) == ["/redirect/3", "/redirect/2", "/redirect/1", "/redirect/0"])
        }
    }

    @Test func redirectsAreNotFollowedWhenDisabled() async throws {
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(url: sandbox.baseURL + "/redirect/2", followRedirects: false)
            let response = try await client.execute(request).value
            #expect(response.status == 302)
            #expect(response.headers["Location"] == "/redirect/1")
            #expect(sandbox.events().count == 1)
        }
    }

    @Test func moreThanTenRedirectsFail() async throws {
        try await withSandbox { sandbox, client in
            let error = try #require(
                await httpError(client.execute(HTTPRequest(url: sandbox.baseURL + "/redirect/11"))))
            #expect(error.kind == .other)
            #expect(error.message.lowercased().contains("redirect"))
            let ten = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/redirect/10")).value
            #expect(ten.status == 200)
        }
    }

    /// `localhost` and `127.0.0.1` are two origins of one sandbox.
    @Test func originBoundHeadersAuthorizationAndCookieStayWithTheFirstOrigin() async throws {
        try await withSandbox { sandbox, client in
            let port = try #require(sandbox.baseURL.split(separator: ":").last)
            func send(to target: String) async throws -> (headers: [String: String], dropped: [String]) {
                var request = HTTPRequest(
                    url: sandbox.baseURL + "/redirect-to", query: [("url", target), ("status", "307")],
                    headers: ["X-Api-Key": "k", "Authorization": "Bearer t", "Cookie": "a=b", "X-Plain": "p"])
                request.originBoundHeaders = ["x-api-key"]
                let response = try await client.execute(request).value
                return (try json(response)["headers"] as? [String: String] ?? [:], response.droppedHeaders)
            }
            let same = try await send(to: sandbox.baseURL + "/echo")
            #expect(same.headers["x-api-key"] == "k" && same.headers["authorization"] == "Bearer t")
            #expect(same.dropped.isEmpty)
            let other = try await send(to: "http://localhost:\(port)/echo")
            #expect(other.headers["x-plain"] == "p")
            #expect(other.headers["x-api-key"] == nil && other.headers["authorization"] == nil)
            #expect(other.headers["cookie"] == nil)
            #expect(other.dropped == ["X-Api-Key"])
        }
    }

    @Test func a303TurnsAPutIntoAGetAndA307OfABodyThatMayNotBeResentFails() async throws {
        try await withSandbox { sandbox, client in
            let target = sandbox.baseURL + "/echo"
            let put = HTTPRequest(
                method: "PUT", url: sandbox.baseURL + "/redirect-to", query: [("url", target), ("status", "303")],
                headers: ["Content-Type": "text/plain"], body: .bytes(Array("data".utf8)))
            let answer = try json(try await client.execute(put).value)
            #expect(answer["method"] as? String == "GET")
            #expect((answer["headers"] as? [String: String])?["content-type"] == nil)

            var once = put
            once.method = "POST"
            once.query = [("url", target), ("status", "307")]
            once.mayResendBody = false
            let error = try #require(await httpError(client.execute(once)))
            #expect(error.message.contains("this body is not sent twice"), "\(error.message)")
        }
    }

    @Test func totalTimeoutFailsWithTimeout() async throws {
        try await withSandbox { sandbox, client in
            let clock = ContinuousClock()
            let started = clock.now
            let request = HTTPRequest(url: sandbox.baseURL + "/delay/3000", timeout: .milliseconds(300))
            let error = try #require(await httpError(client.execute(request)))
            let elapsed = clock.now - started
            #expect(error.kind == .timeout)
            // The limit that passed, as a value a caller compares with its own.
            #expect(error.timeLimit == .request(.milliseconds(300)))
            #expect(error.isTransient)
            #expect(error.message.contains("/delay/3000"))
            #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(2), "took \(elapsed)")
        }
    }

    @Test func connectTimeoutFailsWithTimeout() async throws {
        let (port, descriptors) = try saturatedListener()
        defer { descriptors.forEach { close($0) } }
        // Let the queued handshakes complete so the next SYN finds the queue full.
        try await Task.sleep(for: .milliseconds(100))
        let client = HTTPClient()
        defer { client.shutdown() }
        let clock = ContinuousClock()
        let started = clock.now
        let request = HTTPRequest(url: "http://127.0.0.1:\(port)/", connectTimeout: .milliseconds(300))
        let error = try #require(await httpError(client.execute(request)))
        let elapsed = clock.now - started
        #expect(error.kind == .timeout)
        #expect(error.timeLimit == .connect(.milliseconds(300)))
        #expect(error.isTransient)
        #expect(elapsed >= .milliseconds(250) && elapsed < .seconds(3), "took \(elapsed)")
        #expect(error.message.contains("(limit 300ms)"), "\(error.message)")
    }

    /// While the connection is being made both limits run, and the one named is the one that passed,
    /// whatever words curl used for it.
    @Test func whileConnectingTheShorterOfTheTwoLimitsIsTheOneNamed() async throws {
        let (port, descriptors) = try saturatedListener()
        defer { descriptors.forEach { close($0) } }
        try await Task.sleep(for: .milliseconds(100))
        let client = HTTPClient()
        defer { client.shutdown() }
        let url = "http://127.0.0.1:\(port)/"
        let requestFirst = HTTPRequest(url: url, timeout: .milliseconds(300), connectTimeout: .seconds(5))
        let overall = try #require(await httpError(client.execute(requestFirst)))
        #expect(overall.kind == .timeout)
        #expect(overall.timeLimit == .request(.milliseconds(300)), "\(overall.message)")
        let connectFirst = HTTPRequest(url: url, timeout: .seconds(5), connectTimeout: .milliseconds(300))
        let connecting = try #require(await httpError(client.execute(connectFirst)))
        #expect(connecting.timeLimit == .connect(.milliseconds(300)), "\(connecting.message)")
    }
}
