import FlowHTTP
import FlowSandbox
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// Where a completion callback ran: inline on the completing thread (the client's curl thread:
/// nothing else in this target completes HTTP futures inside `InlineCallbacks.run`) or queued.
private func placement() -> String {
    InlineCallbacks.areAllowed ? "inline" : "queued"
}

/// The calling thread, to tell threads apart.
private func threadID() -> UInt {
    UInt(pthread_self())
}

@Suite struct InlineCompletionTests {
    @Test func requestsSentFromInlineCallbacksRunOneAfterAnotherOnTheCurlThread() async throws {
        try await withSandbox { sandbox, client in
            let count = 40
            let seen = Recorder<String>()
            let threads = Recorder<UInt>()
            let done = Promise<Void>(on: DispatchQueue(label: "test.done"))
            @Sendable func send(_ index: Int) {
                client.execute(HTTPRequest(url: sandbox.baseURL + "/health?i=\(index)")).whenCompleteInline { result in
                    let status = (try? result.get().status) ?? -1
                    seen.append("\(index):\(status):\(placement())")
                    threads.append(threadID())
                    if index < count { send(index + 1) } else { done.succeed(()) }
                }
            }
            send(1)
            try await done.future.value
            #expect(seen.all == (1...count).map { "\($0):200:inline" })
            // All on one thread, the one that ran the transfers.
            #expect(Set(threads.all).count == 1)
        }
    }

    @Test func withOtherTransfersInFlightCompletionsStayOnTheQueue() async throws {
        try await withSandbox { sandbox, client in
            let seen = Recorder<String>()
            let futures = (0..<6).map { index in
                client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/300?i=\(index)"))
            }
            for future in futures {
                future.whenCompleteInline { result in
                    seen.append("\((try? result.get().status) ?? -1):\(placement())")
                }
            }
            for future in futures { _ = try await future.value }
            #expect(await eventually { seen.count == 6 })
            // Only the last one to finish can have been alone in flight.
            #expect(seen.all.filter { $0 == "200:queued" }.count >= 5)
            #expect(seen.all.allSatisfy { $0.hasPrefix("200:") })
        }
    }

    @Test func plainCallbacksOfASingleTransferStayOnTheClientQueue() async throws {
        try await withSandbox { sandbox, client in
            let seen = Recorder<String>()
            let future = client.execute(HTTPRequest(url: sandbox.baseURL + "/health"))
            future.whenComplete { _ in seen.append(placement()) }
            _ = try await future.value
            #expect(await eventually { seen.count == 1 })
            #expect(seen.all == ["queued"])
        }
    }

    @Test func aRequestCancelledFromAnInlineCallbackFailsOnceAndTheClientGoesOn() async throws {
        try await withSandbox { sandbox, client in
            let seen = Recorder<String>()
            let done = Promise<Void>(on: DispatchQueue(label: "test.done"))
            client.execute(HTTPRequest(url: sandbox.baseURL + "/health")).whenCompleteInline { _ in
                let slow = client.execute(HTTPRequest(url: sandbox.baseURL + "/delay/5000"))
                slow.whenCompleteInline { result in
                    if case .failure(let error as FutureError) = result, error == .cancelled {
                        seen.append("cancelled")
                    } else {
                        seen.append("not cancelled")
                    }
                    client.execute(HTTPRequest(url: sandbox.baseURL + "/health")).whenCompleteInline { result in
                        seen.append("after: \((try? result.get().status) ?? -1):\(placement())")
                        done.succeed(())
                    }
                }
                slow.cancel()
            }
            try await done.future.value
            try await Task.sleep(for: .milliseconds(100))
            #expect(seen.all == ["cancelled", "after: 200:inline"])
        }
    }

    @Test func shuttingDownFromAnInlineCallbackFailsWhatFollows() async throws {
        let sandbox = try await Sandbox.start()
        let client = HTTPClient()
        let next = Promise<Future<HTTPResponse>>(on: DispatchQueue(label: "test.next"))
        client.execute(HTTPRequest(url: sandbox.baseURL + "/health")).whenCompleteInline { _ in
            client.shutdown()
            next.succeed(client.execute(HTTPRequest(url: sandbox.baseURL + "/health")))
        }
        let error = try #require(await httpError(try await next.future.value))
        #expect(error.kind == .cancelled)
        await sandbox.stop()
    }
}

/// A thread-safe record of things that happened, in order.
private final class Recorder<Element: Sendable>: Sendable {
    private let items = LockedBox<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}
