import FlowHTTP
import FlowSandbox
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// curl easy handles are kept and reset for the next requests (`EasyHandlePool`): requests sent
/// one after another make only a couple of handles, and nothing set for one request (method,
/// body, headers, limits) reaches the next one sent on the same handle.
@Suite struct EasyHandleReuseTests {
    @Test func requestsSentOneAfterAnotherReuseTheirCurlHandles() async throws {
        try await withSandbox { sandbox, client in
            let count = 60
            let statuses = LockedBox<[Int]>([])
            let done = Promise<Void>(on: DispatchQueue(label: "test.done"))
            // Each next request is sent from the answer's callback, as an upload sends its chunks.
            @Sendable func send(_ index: Int) {
                let body = HTTPBody.bytes(Array("chunk \(index)".utf8))
                var request = HTTPRequest(method: "PUT", url: sandbox.baseURL + "/reflect/200", body: body)
                request.headers.set("Content-Range", "bytes \(index)-\(index)/\(count)")
                client.execute(request).whenCompleteInline { result in
                    statuses.withLock { $0.append((try? result.get().status) ?? -1) }
                    if index < count { send(index + 1) } else { done.succeed(()) }
                }
            }
            send(1)
            try await done.future.value
            #expect(statuses.withLock { $0 } == Array(repeating: 200, count: count))
            // One handle sends while the one before is reset for the next: two, not sixty.
            #expect(client.curlHandlesMade <= 2)
        }
    }

    @Test func aReusedHandleCarriesNothingOfTheRequestBefore() async throws {
        try await withSandbox { sandbox, client in
            for round in 0..<4 {
                var put = HTTPRequest(
                    method: "PUT", url: sandbox.baseURL + "/reflect/200?round=\(round)",
                    body: .bytes(Array("the put's body".utf8)))
                put.headers.set("X-Only-On-Put", "yes")
                put.headers.set("User-Agent", "reuse-test")
                let echoed = String(decoding: try await client.execute(put).value.body, as: UTF8.self).lowercased()
                #expect(echoed.hasPrefix("the put's body\nput /reflect/200?round=\(round)\n"))
                #expect(echoed.contains("x-only-on-put: yes"))

                var get = HTTPRequest(url: sandbox.baseURL + "/reflect/201?round=\(round)")
                get.maxResponseBodySize = 1 << 16
                let response = try await client.execute(get).value
                let text = String(decoding: response.body, as: UTF8.self).lowercased()
                #expect(response.status == 201)
                // Header names as the sandbox echoes them: lower-cased.
                #expect(text.hasPrefix("\nget /reflect/201?round=\(round)\n"))
                #expect(!text.contains("x-only-on-put"))
                #expect(!text.contains("reuse-test"))
                #expect(!text.contains("content-length"))
                #expect(text.contains("user-agent: \(HTTPRequest.defaultUserAgent.lowercased())"))

                // A HEAD after both: no body expected, none waited for.
                let head = try await client.execute(HTTPRequest(method: "HEAD", url: sandbox.baseURL + "/health"))
                    .value
                #expect(head.status == 200)
                #expect(head.body.isEmpty)

                // A limit set on one request does not stay for the next.
                var small = HTTPRequest(url: sandbox.baseURL + "/reflect/200?pad=5000")
                small.maxResponseBodySize = 100
                let refused = await httpError(client.execute(small))
                #expect(refused?.kind == .bodyTooLarge)
                let large = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/reflect/200?pad=5000")).value
                #expect(large.body.count > 5000)
            }
            // Twenty requests, one at a time: one handle sends while the last one waits to be reset.
            #expect(client.curlHandlesMade <= 2)
        }
    }
}
