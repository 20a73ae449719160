import FlowDSL
import FlowEngine
import FlowSandbox
import Foundation
import Testing

/// `for-each` steps run against the sandbox: the concurrency the server saw, races whose losers
/// the server saw hang up, failures with and without fail-fast, and the outputs as lists.
@Suite struct ForEachRunTests {
    @Test func runTimeItemsFanOutAtMostConcurrencyAtOnceWithOutputsInItemOrder() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              list:
                http: { url: BASE/items/7 }
                outputs: { names: "${{ result.json.items }}" }
              fetch:
                needs: list
                for-each: ${{ steps.list.outputs.names }}
                as: name
                concurrency: 3
                http: { url: "BASE/held/fan/300?name=${{ name }}&at=${{ index }}" }
                outputs: { name: "${{ result.json.name }}", at: "${{ index }}" }
              stats:
                needs: fetch
                http: { url: BASE/held/fan }
                outputs:
                  max: ${{ result.json.max }}
                  total: ${{ result.json.total }}
                  names: ${{ steps.fetch.outputs.at }}
                  second: ${{ steps.fetch.items[1] }}
            """)
        #expect(records["fetch"]?.state == .succeeded, "\(String(describing: records["fetch"]?.error))")
        let fetch = try #require(records["fetch"]?.output)
        #expect(fetch.outputs["name"] == .array(Array(repeating: .string("fan"), count: 7)))
        #expect(fetch.outputs["at"] == .array((0..<7).map { .number(Double($0)) }))
        #expect(fetch.items?.map(\.state) == Array(repeating: .succeeded, count: 7))
        let stats = try #require(records["stats"]?.output?.outputs)
        #expect(stats["max"] == .number(3), "the server held at most 3 requests at once")
        #expect(stats["total"] == .number(7))
        #expect(
            stats["second"]
                == .object(["item": "item-1", "status": "succeeded", "outputs": ["name": "fan", "at": 1]]))
    }

    @Test func anyOverItemsTakesTheFirstSuccessAndTheServerSeesTheLosersHangUp() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              race:
                for-each: [10000, 100, 10000]
                as: ms
                parallel: any
                http: { url: "BASE/held/race/${{ ms }}" }
                outputs: { held: "${{ result.json.held }}" }
            """)
        #expect(records["race"]?.state == .succeeded)
        let race = try #require(records["race"]?.output)
        #expect(race.items?.map(\.state) == [.cancelled, .succeeded, .cancelled])
        #expect(race.outputs["held"] == .array([.null, "100", .null]))
        var hungUp = 0
        for _ in 0..<300 {
            hungUp = harness.sandbox.events().filter { $0.path == "/held/race/10000" && $0.clientDisconnected }.count
            if hungUp == 2 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(hungUp == 2, "both losers' requests were aborted, not left running")
    }

    @Test func theFirstFailureCancelsTheRestAndNamesTheItem() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              check:
                for-each: [ok, "${{ secrets.TOKEN }}", later, last]
                concurrency: 1
                http: { url: "BASE/status/${{ index == 1 && 500 || 200 }}" }
            """, secrets: ["TOKEN": "hunter2-secret"])
        let record = try #require(records["check"])
        #expect(record.state == .failed)
        let failure = try #require(record.error as? ForEachFailure)
        #expect(failure.message.hasPrefix("step 'check' item 1 (\"***\") failed: "), "\(failure.message)")
        #expect(!failure.message.contains("hunter2"))
        #expect(failure.partial.items?.map(\.state) == [.succeeded, .failed, .skipped, .skipped])
        // The record gives the items so far itself: no reader looks inside the failure.
        #expect(record.items?.map(\.state) == [.succeeded, .failed, .skipped, .skipped])
        #expect(harness.sandbox.events().count == 2, "no item started after the failure")
    }

    @Test func withoutFailFastEveryItemRunsAndDependentsReadTheLists() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, lines) = try await harness.run(
            """
            version: 1
            steps:
              check:
                for-each: [200, 500, 201, 503]
                as: code
                fail-fast: false
                continue-on-error: true
                http: { url: "BASE/status/${{ code }}" }
                outputs: { code: "${{ result.status }}" }
              report:
                needs: check
                run: echo "${{ toJSON(steps.check.outputs.code) }} ${{ steps.check.items[3].status }}"
            """)
        let record = try #require(records["check"])
        #expect(record.state == .failed)
        let failure = try #require(record.error as? ForEachFailure)
        #expect(failure.message.hasPrefix("step 'check' item 1 (500) failed: "), "\(failure.message)")
        #expect(failure.message.hasSuffix("(2 of 4 items failed)"))
        #expect(failure.partial.items?.map(\.state) == [.succeeded, .failed, .succeeded, .failed])
        #expect(record.items?.map(\.state) == [.succeeded, .failed, .succeeded, .failed])
        #expect(record.produced?.outputs["code"] == .array([.number(200), .null, .number(201), .null]))
        #expect(lines == ["report: [200,null,201,null] failed"])
    }

    @Test func manyZeroLengthItemsFromRangeKeepTheirOrder() async throws {
        let harness = try await WorkflowHarness.start()
        defer { Task { await harness.stop() } }
        let (records, _) = try await harness.run(
            """
            version: 1
            steps:
              tick:
                for-each: ${{ range(0, 2000) }}
                sleep: 0s
                outputs: { label: "${{ format('n{0}', item) }}" }
              entries:
                for-each: { b: 2, a: 1 }
                sleep: 0s
                outputs: { key: "${{ item.key }}" }
            """)
        let tick = try #require(records["tick"]?.output)
        #expect(tick.outputs["label"] == .array((0..<2000).map { .string("n\($0)") }))
        #expect(records["entries"]?.output?.outputs["key"] == .array(["a", "b"]))
    }
}
