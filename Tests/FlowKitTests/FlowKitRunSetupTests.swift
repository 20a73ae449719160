import FlowKit
import Foundation
import Testing

/// What `flow run` checks before a run, as an app gets it from FlowKit's public API: the check
/// with `call`s as warnings, the inputs' and options' problems rendered with their source lines,
/// and what a log or a summary shows of a step.
@Suite struct FlowKitRunSetupTests {
    static let yaml = """
        version: 1
        inputs:
          count: { type: number }
        steps:
          rank:
            call: rank-users
          both:
            parallel: all
            steps:
              ping:
                run: "true"
                outputs: { unused: "${{ result.stdout }}" }
        """

    @Test func aDryRunsCheckShowsCallsAsWarningsAndCountsUnreadOutputsApart() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = folder.path + "/app.yaml"
        try Self.yaml.write(toFile: path, atomically: true, encoding: .utf8)

        let run = FlowWorkflow.check(contentsOf: path, hostSteps: [])
        #expect(!run.isValid)
        let dryRun = FlowWorkflow.check(contentsOf: path, hostSteps: [], callsAsWarnings: true)
        #expect(dryRun.isValid)
        let call = try #require(dryRun.diagnostics.first { $0.message.contains("rank-users") })
        #expect(call.severity == .warning && !call.isTidiness)
        let unread = try #require(dryRun.diagnostics.first { $0.message.contains("'unused'") })
        #expect(unread.isTidiness)
        // Rendered as flow prints it: the place, the line, a caret under the whole name.
        #expect(dryRun.rendered([unread]).contains("outputs: { unused: \"${{ result.stdout }}\" }\n"))
        #expect(dryRun.rendered([unread]).contains("^~~~~~\n"))
    }

    @Test func inputAndOptionProblemsAreValuesRenderedAtTheirPlace() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = folder.path + "/app.yaml"
        try Self.yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let check = FlowWorkflow.check(contentsOf: path, hostSteps: [], callsAsWarnings: true)
        let workflow = try #require(check.workflow)

        let inputs = workflow.inputProblems(["count=ten", "cuont=1", "nothing"])
        #expect(
            inputs.map(\.message) == [
                "input 'count' must be a number, not 'ten'", "unknown input 'cuont'",
                "--input 'nothing' is not name=value",
            ])
        #expect(inputs[1].hint == "did you mean 'count'?")
        #expect(check.rendered(inputs).contains("  count: { type: number }\n"))
        #expect(workflow.inputProblems(["count=3"]).isEmpty)

        var options = FlowRunOptions()
        options.secrets = .environment.merging(.file(folder.path + "/missing.env"))
        options.reports = [try #require(FlowRunOptions.Report(named: "junit", path: folder.path + "/no/such/r.xml"))]
        #expect(FlowRunOptions.Report(named: "xml", path: "r.xml") == nil)
        #expect(FlowRunOptions.Report.formats == ["json", "junit", "html", "trace"])
        let problems = options.problems.map(\.message)
        #expect(problems.count == 2)
        #expect(problems[0].contains("missing.env"))
        #expect(problems[1].contains("does not exist"))
        // `start` refuses the same options before anything runs.
        options.inputs = ["count": "3"]
        #expect(throws: FlowError.self) { _ = try workflow.start(options) }
    }

    @Test func aStepsKeywordGroupAndSourceLineAreWhatALogShows() throws {
        let workflow = try FlowWorkflow(yaml: Self.yaml, baseFolder: "/tmp", fileName: "app.yaml")
        #expect(workflow.keyword(ofStep: "rank") == "call")
        #expect(workflow.keyword(ofStep: "both/ping") == "run" || workflow.keyword(ofStep: "ping") == "run")
        #expect(workflow.keyword(ofStep: "nope") == nil)
        #expect(workflow.isPlainGroup("both") && !workflow.isPlainGroup("rank"))
        let place = try #require(workflow.warnings.first { $0.isTidiness }?.location)
        let snippet = workflow.snippet(at: place)
        #expect(snippet.contains("outputs: { unused:") && snippet.hasSuffix("^\n"))
    }
}
