import Foundation
import Testing

/// One rule for counting a run, in the summary and in `flow runs`: steps by state (a `for-each`
/// step counts once), with the items shown apart.
@Suite struct SummaryCountsTests {
    @Test func theSummaryAndFlowRunsCountStepsWithItemsApart() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let state = scratch.folder.appendingPathComponent("state").path
        let file = try scratch.write(
            "items.yaml",
            """
            version: 1
            steps:
              hello: { sleep: 0s }
              tick:
                for-each: ${{ range(0, 5) }}
                sleep: 0s
            """)
        let run = try await FlowProcess.run(["run", file, "--state-dir", state])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("flow: succeeded — 2 succeeded, 0 failed, 0 skipped, 0 cancelled in "))
        #expect(run.stdout.contains("s (5 items: 5 succeeded)\n"), "\(run.stdout)")

        let listing = try await FlowProcess.run(["runs", file, "--state-dir", state])
        #expect(listing.exitCode == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("2 succeeded (5 items: 5 succeeded)"), "\(listing.stdout)")
        let json = try await FlowProcess.run(["runs", file, "--state-dir", state, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let first = try #require((object["runs"] as? [[String: Any]])?.first)
        #expect(first["steps"] as? [String: Int] == ["succeeded": 2])
        #expect(first["items"] as? [String: Int] == ["succeeded": 5])

        let logged = try await FlowProcess.run(["run", file, "--no-journal", "--log-format", "json"])
        let summary = try #require(logged.stdout.split(separator: "\n").last { $0.contains("\"event\":\"summary\"") })
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(fields["succeeded"] as? Int == 2)
        #expect(fields["items"] as? [String: Int] == ["succeeded": 5])
    }
}
