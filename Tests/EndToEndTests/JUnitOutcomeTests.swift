import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The JUnit report's failures and errors agree with the exit code: what the run absorbed (a
/// lost race, a failure under `continue-on-error`) is a skipped test case saying why.
@Suite struct JUnitOutcomeTests {
    @Test func aWonRaceAndAnIgnoredFailureAreSkippedNotErrors() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "race.yaml",
            """
            version: 1
            steps:
              mirror:
                parallel: any
                steps:
                  us: { sleep: 0s }
                  eu: { run: sleep 30 }
              regions:
                for-each: [0, 30]
                parallel: any
                run: sleep ${{ item }}
              optional:
                continue-on-error: true
                run: exit 3
            """)
        let junit = scratch.folder.appendingPathComponent("run.xml").path
        let outcome = try await FlowProcess.run(["run", file, "--report", "junit", junit])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="0" errors="0""#), "\(xml)")
        #expect(xml.contains(#"<skipped message="lost to us"/>"#), "\(xml)")
        #expect(xml.contains(#"<skipped message="lost to regions[0]"/>"#), "\(xml)")
        #expect(xml.contains("(continue-on-error)\"/>"), "\(xml)")
        #expect(!xml.contains("<error"), "\(xml)")
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }

    @Test func aFailedRunStillCountsItsFailureAndTheCancelledSibling() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "fail.yaml",
            """
            version: 1
            steps:
              both:
                parallel: all
                steps:
                  bad: { run: exit 3 }
                  slow: { run: sleep 30 }
            """)
        let junit = scratch.folder.appendingPathComponent("run.xml").path
        let outcome = try await FlowProcess.run(["run", file, "--report", "junit", junit])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="3" failures="2" errors="1""#), "\(xml)")
    }
}
