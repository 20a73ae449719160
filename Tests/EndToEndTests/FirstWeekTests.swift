import Foundation
import Testing

/// Rough edges a new user meets in the first week: report paths, the process environment in
/// expressions, and what `validate` warns about.
@Suite struct FirstWeekTests {
    private func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("flow-first-week-\(UUID())-\(name)").path
    }

    private func write(_ yaml: String) throws -> String {
        let path = temporary("workflow.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aReportInAMissingFolderIsRefusedBeforeAnythingRuns() async throws {
        let marker = temporary("ran")
        let file = try write(
            """
            version: 1
            steps:
              touch: { run: "touch \(marker)" }
            """)
        let folder = temporary("no-such-folder")
        let outcome = try await FlowProcess.run(["run", file, "--report", "json", "\(folder)/r.json"])
        #expect(outcome.exitCode == 2, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "error: cannot write the json report to '\(folder)/r.json': the folder '\(folder)' does not exist"))
        #expect(!FileManager.default.fileExists(atPath: marker), "a step ran")
        #expect(!outcome.stderr.contains("Domain"))
    }

    @Test func aReportPathThatIsAFolderIsRefused() async throws {
        let file = try write("version: 1\nsteps:\n  a: { sleep: 1ms }\n")
        let outcome = try await FlowProcess.run(
            ["run", file, "--report", "junit", FileManager.default.temporaryDirectory.path])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("it is a folder"))
    }

    @Test func aReportThatCannotBeWrittenAfterTheRunSaysWhyInWords() async throws {
        // The step removes the report's folder, so the check before the run passes and the write fails.
        let folder = temporary("reports")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = try write(
            """
            version: 1
            steps:
              remove: { run: "rmdir \(folder)" }
            """)
        let outcome = try await FlowProcess.run(["run", file, "--report", "json", "\(folder)/r.json"])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stderr
                == "flow run: cannot write the json report to '\(folder)/r.json': no such file or directory\n")
    }

    @Test func expressionsReadTheProcessEnvironmentInARunAsInADryRun() async throws {
        let file = try write(
            """
            version: 1
            env:
              FROM_WORKFLOW: "wf-${{ env.FLOW_FIRST_WEEK_VALUE }}"
            steps:
              show:
                run: [echo, "value=${{ env.FLOW_FIRST_WEEK_VALUE }} workflow=${{ env.FROM_WORKFLOW }}"]
            """)
        let environment = ["FLOW_FIRST_WEEK_VALUE": "from-the-shell"]
        let run = try await FlowProcess.run(["run", file], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("[show] | value=from-the-shell workflow=wf-from-the-shell"))
        let dryRun = try await FlowProcess.run(["run", file, "--dry-run"], environment: environment)
        #expect(dryRun.exitCode == 0)
        #expect(dryRun.stdout.contains("value=from-the-shell"))
    }

    @Test func validateWarnsAboutAnExpressionInSingleQuotes() async throws {
        let file = try write(
            """
            version: 1
            steps:
              greet: { run: "echo 'hello ${{ env.USER }}'" }
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 0)
        #expect(outcome.stderr.contains("\(file):3:30: warning: '${{ }}' inside single quotes"))
    }

    @Test func validateFindsARelativeURLWithoutABase() async throws {
        let file = try write(
            """
            version: 1
            steps:
              users: { http: { url: /api/users } }
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("\(file):3:25: error: the URL '/api/users' of step 'users' is relative"))
    }

    @Test func retryTakesAnExpressionCheckedWhenTheRunStarts() async throws {
        let counter = temporary("attempts")
        let file = try write(
            """
            version: 1
            inputs:
              retries: { default: "3" }
            steps:
              flaky:
                retry: { attempts: "${{ inputs.retries }}", delay: 10ms }
                run: "echo try >> \(counter); exit 1"
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stderr)")
        let run = try await FlowProcess.run(["run", file])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(try String(contentsOfFile: counter, encoding: .utf8) == "try\ntry\ntry\n")
        try FileManager.default.removeItem(atPath: counter)

        let wrong = try await FlowProcess.run(["run", file, "--input", "retries=many"])
        #expect(wrong.exitCode == 2)
        #expect(
            wrong.stderr.contains(
                "\(file):6:24: error: 'attempts' of step 'flaky' is '${{ inputs.retries }}', which is the text "
                    + "'many': it must be a whole number of at least 1"))
        #expect(!FileManager.default.fileExists(atPath: counter), "a step ran")
        let dryRun = try await FlowProcess.run(["run", file, "--dry-run", "--input", "retries=many"])
        #expect(dryRun.exitCode == 2)
        #expect(dryRun.stderr.contains("'attempts' of step 'flaky'"))
    }
}
