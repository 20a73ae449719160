import FlowHTTP
import FlowTasks
import Testing

@Suite struct MethodTests {
    @Test(arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func eachMethodArrivesAsSent(method: String) async throws {
        try await withSandbox { sandbox, client in
            let body: HTTPBody = method == "GET" || method == "OPTIONS" ? .empty : .bytes(Array("payload".utf8))
            let request = HTTPRequest(method: method, url: sandbox.baseURL + "/echo", body: body)
            let response = try await client.execute(request).value
            #expect(response.status == 200)
            let echo = try json(response)
            #expect(echo["method"] as? String == method)
            #expect(echo["body"] as? String == (body == .empty ? "" : "payload"))
            let headers = echo["headers"] as? [String: String] ?? [:]
            #expect(headers["expect"] == nil, "curl must not ask for 100 Continue")
        }
    }

    @Test func headAnswersHeadersWithoutBody() async throws {
        try await withSandbox { sandbox, client in
            let response = try await client.execute(HTTPRequest(method: "HEAD", url: sandbox.baseURL + "/echo")).value
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            #expect(response.headers["content-type"] != nil)
        }
    }

    @Test func queryHeadersAndMetadataReachTheServer() async throws {
        try await withSandbox { sandbox, client in
            var headers: HTTPHeaders = ["X-Flow-Test": "one", "Content-Type": "application/json"]
            headers.add("Accept", "application/json")
            let request = HTTPRequest(
                method: "POST",
                url: sandbox.baseURL + "/echo",
                query: [("name", "a b&c=d"), ("emoji", "é")],
                headers: headers,
                body: .bytes(Array("{\"a\":1}".utf8))
            )
            let response = try await client.execute(request).value
            let echo = try json(response)
            let query = echo["query"] as? [String: String] ?? [:]
            #expect(query["name"] == "a b&c=d")
            #expect(query["emoji"] == "é")
            let sent = echo["headers"] as? [String: String] ?? [:]
            #expect(sent["x-flow-test"] == "one")
            #expect(sent["content-type"] == "application/json")
            #expect(sent["content-length"] == "7")
            #expect(response.headers["CONTENT-TYPE"] == response.headers["content-type"])
            #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(response.httpVersion == "1.1")
            #expect(response.effectiveURL.hasPrefix(sandbox.baseURL + "/echo?name=a%20b%26c%3Dd"))
            #expect(response.timings.total > .zero)
            #expect(response.timings.firstByte <= response.timings.total)
        }
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        try await withSandbox { sandbox, client in
            let response = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/status/503")).value
            #expect(response.status == 503)
            let missing = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/nothing-here")).value
            #expect(missing.status == 404)
        }
    }

    @Test func largeUploadDoesNotWaitForContinue() async throws {
        try await withSandbox { sandbox, client in
            // curl asks for `100 Continue` before a body this size unless told not to, then waits
            // up to a second for servers that never answer it.
            let body = Array(repeating: UInt8(ascii: "a"), count: 2 << 20)
            let request = HTTPRequest(method: "PUT", url: sandbox.baseURL + "/echo", body: .bytes(body))
            let echo = try json(try await client.execute(request).value)
            let sent = echo["headers"] as? [String: String] ?? [:]
            #expect(sent["expect"] == nil)
            #expect((echo["body"] as? String)?.utf8.count == body.count)
        }
    }

    @Test func emptyPostSendsZeroLength() async throws {
        try await withSandbox { sandbox, client in
            let response = try await client.execute(HTTPRequest(method: "PUT", url: sandbox.baseURL + "/echo")).value
            let echo = try json(response)
            #expect(echo["method"] as? String == "PUT")
            let sent = echo["headers"] as? [String: String] ?? [:]
            #expect(sent["content-length"] == "0")
            #expect(sent["content-type"] == nil, "no invented form content type")
        }
    }
}
