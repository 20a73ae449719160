import FlowDSL
import FlowEngine
import FlowSandbox
import FlowTasks
import Foundation
import Testing

/// A group with `for-each` against the sandbox: every child runs once per item, in order within
/// the item, with the item in scope; the items race or fail like any `for-each` step's, and a
/// cancelled item's children really stop.
@Suite struct ForEachGroupRunTests {
    /// The ids of every event the run reported, in order, with the final state of each.
    private final class EventLog: Sendable {
        let finished = LockedBox<[String: StepState]>([:])
        let started = LockedBox<[String]>([])

        func record(_ event: SchedulerEvent<StepResult>) {
            switch event.kind {
            case .started: started.withLock { $0.append(event.id) }
            case .finished: finished.withLock { $0[event.id] = event.record.state }
            case .progress: break
            }
        }
    }

    @Test func eachItemRunsItsChildrenInOrderAndTheGroupsOutputsBecomeLists() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let log = EventLog()
        let (records, lines) = try await harness.run(
            """
            version: 1
            steps:
              tag:
                sleep: 0s
                outputs: { value: t7 }
              batch:
                needs: tag
                for-each: [a, b, c]
                as: name
                concurrency: 2
                parallel: all
                steps:
                  create:
                    http: { method: POST, url: "BASE/jobs?polls=0&name=${{ name }}&tag=${{ steps.tag.outputs.value }}" }
                    outputs: { id: "${{ result.json.id }}" }
                  check:
                    needs: create
                    http: { url: "BASE/jobs/${{ steps.create.outputs.id }}?name=${{ name }}&at=${{ index }}" }
                    outputs: { result: "${{ result.json.result }}" }
                outputs:
                  id: ${{ steps.create.outputs.id }}
                  result: ${{ steps.check.outputs.result }}
                  name: ${{ name }}
              after:
                needs: batch
                run: echo "${{ toJSON(steps.batch.outputs.name) }} ${{ steps.batch.items[1].outputs.name }}"
            """, onEvent: log.record)
        #expect(records["batch"]?.state == .succeeded, "\(String(describing: records["batch"]?.error))")
        let batch = try #require(records["batch"]?.output)
        #expect(batch.outputs["name"] == ["a", "b", "c"])
        #expect(batch.items?.map(\.state) == [.succeeded, .succeeded, .succeeded])
        #expect(lines == ["after: [\"a\",\"b\",\"c\"] b"])
        guard case .array(let ids)? = batch.outputs["id"], case .array(let results)? = batch.outputs["result"] else {
            Issue.record("outputs are not lists: \(batch.outputs)")
            return
        }
        #expect(results == ids.map { .string("ok-\($0.interpolated)") }, "each item checked its own job")
        // The server saw, for each item, its POST and then the GET of the job that POST created.
        let events = harness.sandbox.events()
        for (index, name) in ["a", "b", "c"].enumerated() {
            let post = events.firstIndex { $0.method == "POST" && $0.path == "/jobs?polls=0&name=\(name)&tag=t7" }
            let get = events.firstIndex {
                $0.method == "GET" && $0.path == "/jobs/\(ids[index].interpolated)?name=\(name)&at=\(index)"
            }
            #expect(post != nil && get != nil, "\(name): \(events.map(\.path))")
            if let post, let get { #expect(post < get, "\(name)'s POST came before its GET") }
        }
        let finished = log.finished.withLock { $0 }
        for index in 0..<3 {
            #expect(finished["batch[\(index)]/create"] == .succeeded)
            #expect(finished["batch[\(index)]/check"] == .succeeded)
        }
        #expect(finished["create"] == nil && finished["batch[0]/batch"] == nil, "only qualified children are reported")
    }

    @Test func anyOverItemsCancelsTheLosersChildrenAtTheServer() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let log = EventLog()
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              race:
                for-each: [10000, 100, 10000]
                as: ms
                items: { parallel: any }
                parallel: all
                steps:
                  hold: { http: { url: "BASE/held/group-race/${{ ms }}" } }
                  then:
                    needs: hold
                    http: { url: "BASE/echo?after=${{ ms }}" }
                outputs: { ms: "${{ ms }}" }
            """, onEvent: log.record)
        #expect(records["race"]?.state == .succeeded, "\(String(describing: records["race"]?.error))")
        let race = try #require(records["race"]?.output)
        #expect(race.items?.map(\.state) == [.cancelled, .succeeded, .cancelled])
        #expect(race.outputs["ms"] == [.null, 100, .null])
        var hungUp = 0
        for _ in 0..<300 {
            hungUp =
                harness.sandbox.events().filter { $0.path == "/held/group-race/10000" && $0.clientDisconnected }
                .count
            if hungUp == 2 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(hungUp == 2, "both losing items' requests were aborted, not left running")
        let finished = log.finished.withLock { $0 }
        #expect(finished["race[0]/hold"] == .cancelled && finished["race[2]/hold"] == .cancelled)
        #expect(finished["race[1]/then"] == .succeeded)
        #expect(!harness.sandbox.events().contains { $0.path == "/echo?after=10000" }, "losers never went on")
    }

    @Test func aFailingChildNamesTheQualifiedChildAndTheItem() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let log = EventLog()
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              batch:
                for-each: [ok, fine, bad, never]
                concurrency: 1
                parallel: all
                steps:
                  probe: { http: { url: "BASE/status/${{ item == 'bad' && 500 || 200 }}?item=${{ item }}" } }
            """, onEvent: log.record)
        let record = try #require(records["batch"])
        #expect(record.state == .failed)
        let failure = try #require(record.error as? ForEachFailure)
        #expect(
            failure.message.hasPrefix("step 'batch' item 2 (\"bad\") failed: step 'batch[2]/probe' failed: "),
            "\(failure.message)")
        #expect(failure.location.line == 8, "the failing child's line: \(failure.location)")
        #expect(failure.partial.items?.map(\.state) == [.succeeded, .succeeded, .failed, .skipped])
        #expect(log.finished.withLock { $0["batch[2]/probe"] } == .failed)
        #expect(!harness.sandbox.events().contains { $0.path.hasSuffix("item=never") }, "fail-fast started no more")
    }
}
