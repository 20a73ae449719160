import FlowHTTP
import FlowSandbox
import FlowTasks
import Foundation
import Testing

@Suite struct ConnectionTests {

    @Test func sequentialRequestsReuseOneConnection() async throws {
        try await withSandbox { sandbox, client in
            for _ in 0..<20 {
                let response = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/health")).value
                #expect(response.status == 200)
            }
            let events = sandbox.events()
            #expect(events.count == 20)
            #expect(Set(events.map(\.connection)).count == 1)
        }
    }

    @Test func perHostCapLimitsConnections() async throws {
        let sandbox = try await Sandbox.start()
        let client = HTTPClient(configuration: .init(maxConnectionsPerHost: 2))
        let futures = (0..<20).map { _ in client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/20")) }
        for future in futures {
            #expect(try await future.value.status == 200)
        }
        let connections = Set(sandbox.events().map(\.connection))
        #expect(connections.count <= 2 && !connections.isEmpty)
        client.shutdown()
        await sandbox.stop()
    }

    @Test func connectionRefusedIsATransientConnectError() async throws {
        let client = HTTPClient()
        let port = try closedPort()
        let error = try #require(await httpError(client.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/"))))
        #expect(error.kind == .connect)
        #expect(error.isTransient)
        #expect(error.message.contains("127.0.0.1:\(port)"))
        #expect(error.curlCode == 7)
        client.shutdown()
    }

    @Test func unknownHostIsADNSError() async throws {
        let client = HTTPClient()
        let error = try #require(await httpError(client.execute(HTTPRequest(url: "http://no-such-host.invalid/"))))
        #expect(error.kind == .dns)
        #expect(!error.isTransient)
        client.shutdown()
    }

    @Test(arguments: [
        ("ftp://example.com/", "must start with http"),
        ("127.0.0.1:80/path", "must start with http"),
        ("http://", "no host"),
        ("http://example.com/a b", "spaces"),
    ])
    func malformedURLsAreRejectedBeforeSending(url: String, expected: String) async throws {
        let client = HTTPClient()
        let error = try #require(await httpError(client.execute(HTTPRequest(url: url))))
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains(expected), "\(error.message)")
        client.shutdown()
    }

    @Test func headerInjectionIsRejected() async throws {
        let client = HTTPClient()
        let request = HTTPRequest(url: "http://127.0.0.1:1/", headers: ["X-A": "1\r\nX-B: 2"])
        let error = try #require(await httpError(client.execute(request)))
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("X-A"))
        client.shutdown()
    }
}
