import Foundation
import Testing

/// `--rerun ID` names steps of the file: a misspelt one is a usage error with "did you mean",
/// not ignored while the resume stops at the step it meant.
@Suite struct RerunIDTests {
    @Test func anUnknownRerunIDIsAUsageErrorWithASuggestion() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "pay.yaml",
            """
            version: 1
            steps:
              pay: { run: "true" }
              both:
                parallel: all
                steps:
                  child: { run: "true" }
            """)
        let misspelt = try await FlowProcess.run(["run", file, "--resume", "--rerun", "pya", "--rerun", "nosuch"])
        #expect(misspelt.exitCode == 64, "\(misspelt.stderr)")
        #expect(
            misspelt.stderr.contains("--rerun names no step of the workflow: 'pya', 'nosuch'; did you mean 'pay'?"),
            "\(misspelt.stderr)")
        // Known ids, and ids of what a step ran, pass on to the resume (which finds nothing to resume).
        let known = try await FlowProcess.run([
            "run", file, "--resume", "--rerun", "pay", "--rerun", "child", "--rerun", "both[2]/child",
        ])
        #expect(known.exitCode == 2, "\(known.stderr)")
        #expect(!known.stderr.contains("--rerun names no step"), "\(known.stderr)")
    }
}
