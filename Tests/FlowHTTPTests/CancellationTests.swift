import FlowHTTP
import FlowSandbox
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct CancellationTests {
    @Test func cancellingAbortsTheTransferAndTheServerSeesTheHangUp() async throws {
        try await withSandbox { sandbox, client in
            let future = client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/10000"))
            #expect(await eventually { sandbox.events().contains { $0.path == "/delay/10000" } })
            let clock = ContinuousClock()
            let cancelledAt = clock.now
            future.cancel()
            await #expect(throws: FutureError.cancelled) { try await future.value }
            #expect(
                await eventually(within: .seconds(3)) {
                    sandbox.events().first { $0.path == "/delay/10000" }?.clientDisconnected == true
                })
            #expect(clock.now - cancelledAt < .seconds(3))
            // The client still works after a cancellation.
            let after = try await client.execute(HTTPRequest(url: sandbox.baseURL + "/health")).value
            #expect(after.status == 200)
        }
    }

    @Test func cancellingBeforeStartSendsNothing() async throws {
        try await withSandbox { sandbox, client in
            let future = client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/5000"))
            future.cancel()
            await #expect(throws: FutureError.cancelled) { try await future.value }
            try await Task.sleep(for: .milliseconds(200))
            #expect(sandbox.events().allSatisfy { $0.endedAt != nil || $0.clientDisconnected })
        }
    }

    @Test func shutdownAbortsWhatIsInFlightAndRefusesMore() async throws {
        let sandbox = try await Sandbox.start()
        let client = HTTPClient()
        let future = client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/10000"))
        #expect(await eventually { !sandbox.events().isEmpty })
        client.shutdown()
        client.shutdown()
        let error = try #require(await httpError(future))
        #expect(error.kind == .cancelled)
        #expect(error.message.contains("shut down"))
        let later = try #require(await httpError(client.execute(HTTPRequest(url: sandbox.baseURL + "/health"))))
        #expect(later.kind == .cancelled)
        #expect(await eventually { sandbox.events().first?.clientDisconnected == true })
        await sandbox.stop()
    }

    @Test func releasingTheClientAbortsItsRequests() async throws {
        let sandbox = try await Sandbox.start()
        var client: HTTPClient? = HTTPClient()
        let future = try #require(client).execute(HTTPRequest(url: sandbox.baseURL + "/delay/10000"))
        #expect(await eventually { !sandbox.events().isEmpty })
        client = nil
        let error = try #require(await httpError(future))
        #expect(error.kind == .cancelled)
        #expect(await eventually { sandbox.events().first?.clientDisconnected == true })
        await sandbox.stop()
    }
}
