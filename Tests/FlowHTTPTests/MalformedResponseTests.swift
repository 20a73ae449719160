import FlowHTTP
import Testing

/// Responses that break HTTP: each must fail with a message that says what the server did.
@Suite struct MalformedResponseTests {
    private func outcome(of response: [UInt8]) async throws -> (HTTPResponse?, HTTPError?) {
        let server = try RawResponseServer(response: response)
        defer { server.stop() }
        let client = HTTPClient()
        defer { client.shutdown() }
        do {
            return (try await client.execute(HTTPRequest(url: server.url)).value, nil)
        } catch let error as HTTPError {
            return (nil, error)
        }
    }

    @Test func headersCutShortFailTheRequest() async throws {
        let (response, error) = try await outcome(of: Array("HTTP/1.1 200 OK\r\nContent-Ty".utf8))
        #expect(response == nil, "a response cut inside its headers must not count as a 200")
        let failure = try #require(error)
        #expect(failure.kind == .connectionReset)
        #expect(failure.message.contains("ended inside its headers"), "\(failure)")
    }

    @Test func headersEndingAtTheBlankLineStillSucceed() async throws {
        // No Content-Length: the body runs until the server closes, which is complete HTTP/1.0.
        let (response, error) = try await outcome(of: Array("HTTP/1.0 200 OK\r\nX-A: 1\r\n\r\nhello".utf8))
        #expect(error == nil)
        #expect(response?.status == 200)
        #expect(response?.text == "hello")
        #expect(response?.headers["X-A"] == "1")
    }

    @Test func aGiantHeaderLineNamesCurlsLimit() async throws {
        let line = "X-Big: " + String(repeating: "a", count: 200 * 1024) + "\r\n"
        let (_, error) = try await outcome(of: Array("HTTP/1.1 200 OK\r\n\(line)Content-Length: 0\r\n\r\n".utf8))
        let failure = try #require(error)
        #expect(!failure.message.contains("memory"), "\(failure)")
        #expect(failure.message.contains("response header line longer than curl's limit of 100 KiB"), "\(failure)")
        #expect(!failure.isTransient)
    }

    @Test func tooManyHeadersNameCurlsLimit() async throws {
        let headers = (0..<400).map { "X-H\($0): " + String(repeating: "a", count: 1000) + "\r\n" }.joined()
        let (_, error) = try await outcome(of: Array("HTTP/1.1 200 OK\r\n\(headers)Content-Length: 0\r\n\r\n".utf8))
        let failure = try #require(error)
        #expect(failure.message.contains("bytes of response headers, more than curl's limit of 300 KiB"), "\(failure)")
        #expect(!failure.isTransient)
    }
}
