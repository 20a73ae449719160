import FlowSandbox
import Foundation
import Testing

@Suite struct EventLogTests {
    @Test func recordsRequestsInOrderWithStatusAndTimes() async throws {
        try await withSandbox { sandbox in
            _ = try await HTTP.send("GET", sandbox.baseURL + "/health")
            _ = try await HTTP.send("GET", sandbox.baseURL + "/status/500?why=test")
            _ = try await HTTP.send("POST", sandbox.baseURL + "/echo", body: Data("12345".utf8))
            let events = try await waitForEvents(sandbox) { $0.count == 3 && $0.allSatisfy { $0.endedAt != nil } }
            #expect(events.map(\.id) == [1, 2, 3])
            #expect(events.map(\.method) == ["GET", "GET", "POST"])
            #expect(events.map(\.path) == ["/health", "/status/500?why=test", "/echo"])
            #expect(events.map(\.status) == [200, 500, 200])
            #expect(events.map(\.bytesReceived) == [0, 0, 5])
            for (earlier, later) in zip(events, events.dropFirst()) {
                #expect(earlier.startedAt <= later.startedAt)
            }
            #expect(events.allSatisfy { !$0.clientDisconnected })
        }
    }

    @Test func eventsEndpointMatchesTheAPIAndResetClears() async throws {
        try await withSandbox { sandbox in
            _ = try await HTTP.send("GET", sandbox.baseURL + "/health")
            let listed = try await HTTP.send("GET", sandbox.baseURL + "/_events")
            let decoded = try JSONDecoder().decode([SandboxEvent].self, from: listed.body)
            // The request listing itself is still in flight: its end and status are present as null.
            #expect(listed.text.contains(#""endedAt":null"#))
            #expect(listed.text.contains(#""path":"/_events""#))
            #expect(decoded.first?.path == "/health")
            #expect(decoded.last?.path == "/_events")
            #expect(decoded.last?.endedAt == nil)

            let reset = try await HTTP.send("POST", sandbox.baseURL + "/_reset")
            #expect(reset.status == 200)
            _ = try await HTTP.send("GET", sandbox.baseURL + "/health")
            let events = try await waitForEvents(sandbox) { $0.first?.path == "/health" }
            #expect(events.first?.id == 1)
            #expect(events.first?.path == "/health")

            sandbox.reset()
            #expect(sandbox.events().isEmpty)
        }
    }

    @Test func keepAliveReuseShowsAsOneConnection() async throws {
        try await withSandbox { sandbox in
            let first = try await RawConnection.open(port: sandbox.port)
            defer { first.close() }
            try await first.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await first.readResponse()?.status == 200)
            try await first.write("GET /status/201 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await first.readResponse()?.status == 201)

            let second = try await RawConnection.open(port: sandbox.port)
            defer { second.close() }
            try await second.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await second.readResponse()?.status == 200)

            let connections = sandbox.events().map(\.connection)
            #expect(connections.count == 3)
            #expect(connections[0] == connections[1])
            #expect(connections[2] != connections[0])
        }
    }

    @Test func noContentKeepsTheConnectionUsable() async throws {
        try await withSandbox { sandbox in
            let connection = try await RawConnection.open(port: sandbox.port)
            defer { connection.close() }
            try await connection.write("GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n")
            let empty = try await connection.readResponse()
            #expect(empty?.status == 204)
            #expect(empty?.body.isEmpty == true)
            try await connection.write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let next = try await connection.readResponse()
            #expect(next?.status == 200)
            #expect(next?.text == #"{"status":"ok"}"#)
            let events = try await waitForEvents(sandbox) { $0.count == 2 && $0.allSatisfy { $0.endedAt != nil } }
            #expect(events.map(\.status) == [204, 200])
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        try await withSandbox { sandbox in
            let connection = try await RawConnection.open(port: sandbox.port)
            defer { connection.close() }
            try await connection.write(
                "PUT /sink HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
            )
            let interim = try await connection.readResponse()
            #expect(interim?.status == 100)
            try await connection.write("abc")
            let final = try await connection.readResponse()
            #expect(final?.status == 200)
            #expect(
                try final?.object()["sha256"] as? String
                    == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
            )
        }
    }

    @Test func clientHangingUpDuringDelayIsRecordedPromptly() async throws {
        try await withSandbox { sandbox in
            let connection = try await RawConnection.open(port: sandbox.port)
            try await connection.write("GET /delay/5000 HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try await waitForEvents(sandbox) { $0.count == 1 }
            try await Task.sleep(for: .milliseconds(100))
            connection.close()
            let events = try await waitForEvents(sandbox) { $0.first?.endedAt != nil }
            let event = try #require(events.first)
            #expect(event.path == "/delay/5000")
            #expect(event.clientDisconnected)
            #expect(event.status == nil)
            // Noticed at once, not when the five seconds ran out.
            #expect(try #require(event.endedAt) - event.startedAt < 2)
        }
    }

    @Test func concurrentRequestsOverlapInTime() async throws {
        try await withSandbox { sandbox in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await HTTP.send("GET", sandbox.baseURL + "/delay/300").status }
                }
                for try await status in group { #expect(status == 200) }
            }
            let events = sandbox.events()
            #expect(events.count == 3)
            let lastStart = events.map(\.startedAt).max() ?? 0
            let firstEnd = events.compactMap(\.endedAt).min() ?? 0
            #expect(lastStart < firstEnd)
        }
    }
}

@Suite struct StopTests {
    @Test func stopDoesNotWaitOutALongDelay() async throws {
        let sandbox = try await Sandbox.start()
        let connection = try await RawConnection.open(port: sandbox.port)
        defer { connection.close() }
        try await connection.write("GET /delay/60000 HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try await waitForEvents(sandbox) { $0.count == 1 }
        let started = ContinuousClock.now
        await sandbox.stop()
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(await connection.serverClosed())
    }

    @Test func stopClosesTheListeningSocket() async throws {
        let sandbox = try await Sandbox.start()
        await sandbox.stop()
        await #expect(throws: (any Error).self) {
            _ = try await RawConnection.open(port: sandbox.port)
        }
    }
}
