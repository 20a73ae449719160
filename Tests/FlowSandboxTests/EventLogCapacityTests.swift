import Testing

@testable import FlowSandbox

@Suite struct EventLogCapacityTests {
    @Test func aLongRunForgetsTheOldestHalfButKeepsNumbering() {
        let log = EventLog()
        let first = log.begin(method: "GET", path: "/first", connection: 1)
        var last = first
        for index in 0..<EventLog.capacity {
            last = log.begin(method: "GET", path: "/\(index)", connection: 1)
        }
        let events = log.snapshot()
        #expect(events.count <= EventLog.capacity)
        #expect(events.last?.id == EventLog.capacity + 1)
        #expect(events.first?.path != "/first")

        // Updating a forgotten entry is harmless; a kept one still updates.
        log.end(first, status: 200)
        log.end(last, status: 201)
        #expect(log.snapshot().last?.status == 201)
        #expect(log.snapshot().allSatisfy { $0.path != "/first" })
    }

    @Test func resetRestartsIdsAndIgnoresStaleEntries() {
        let log = EventLog()
        let stale = log.begin(method: "GET", path: "/old", connection: 1)
        log.reset()
        let fresh = log.begin(method: "POST", path: "/new", connection: 2)
        log.end(stale, status: 500)
        log.end(fresh, status: 204)
        let events = log.snapshot()
        #expect(events.map(\.id) == [1])
        #expect(events.first?.status == 204)
    }
}
