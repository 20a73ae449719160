import FlowSandbox
import FlowTestSupport
import Foundation
import Testing

/// `uses` as a user runs it: a workflow calling library files (twice, two levels deep) against a
/// sandbox, failures and secrets inside a called file, and Ctrl-C reaching a called command.
@Suite struct UsesRunTests {
    /// A fresh folder with the given files; returns its path.
    private func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("flow-uses-\(UUID())").path
        for (name, text) in files {
            let path = root + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        return root
    }

    private static let deploy = """
        version: 1
        inputs:
          api: { type: string, required: true }
          region: { type: string, required: true }
        defaults:
          http: { base-url: "${{ inputs.api }}" }
        steps:
          publish:
            http: { url: "/mirror/${{ inputs.region }}" }
            outputs: { name: "${{ result.json.mirror }}" }
          announce:
            needs: publish
            uses: ./announce.yaml
            with: { api: "${{ inputs.api }}", what: "${{ steps.publish.outputs.name }}" }
        outputs:
          name: ${{ steps.publish.outputs.name }}-${{ steps.announce.outputs.said }}
        """

    private static let announce = """
        version: 1
        inputs:
          api: { type: string, required: true }
          what: { type: string, required: true }
        steps:
          post:
            http: { method: POST, url: "${{ inputs.api }}/notify", json: { what: "${{ inputs.what }}" } }
            expect: { status: 202 }
        outputs:
          said: ok-${{ inputs.what }}
        """

    @Test func aFileUsedTwiceAndTwoLevelsDeepRunsWithEachInputAndNamesItsSteps() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              deploy-eu:
                uses: ./lib/deploy.yaml
                with: { api: "\(sandbox.baseURL)", region: eu }
              deploy-us:
                uses: ./lib/deploy.yaml
                with: { api: "\(sandbox.baseURL)", region: us }
              report:
                needs: [deploy-eu, deploy-us]
                run: echo "got ${{ steps.deploy-eu.outputs.name }} and ${{ steps.deploy-us.outputs.name }}"
            """,
            "lib/deploy.yaml": Self.deploy,
            "lib/announce.yaml": Self.announce,
        ])
        let report = root + "/report.json"
        let outcome = try await FlowProcess.run(["run", root + "/main.yaml", "--report", "json", report])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let out = outcome.stdout
        #expect(out.contains("[report] | got eu-ok-eu and us-ok-us"), "\(out)")
        #expect(out.contains("[deploy-eu/publish] succeeded"), "\(out)")
        #expect(out.contains("[deploy-us/announce/post] succeeded"), "\(out)")
        #expect(out.contains("flow: succeeded — 9 succeeded, 0 failed, 0 skipped, 0 cancelled"), "\(out)")
        let paths = sandbox.events().map(\.path)
        #expect(paths.filter { $0 == "/mirror/eu" }.count == 1 && paths.filter { $0 == "/mirror/us" }.count == 1)
        #expect(paths.filter { $0 == "/notify" }.count == 2)
        let json = try String(contentsOfFile: report, encoding: .utf8)
        #expect(json.contains(#""id" : "deploy-eu/announce/post""#), "\(json)")

        // The graph and the dry run show the called steps under their `uses` step.
        let graph = try await FlowProcess.run(["graph", root + "/main.yaml"])
        #expect(graph.exitCode == 0)
        #expect(graph.stdout.contains("deploy-eu (uses \(root)/lib/deploy.yaml)"), "\(graph.stdout)")
        #expect(graph.stdout.contains(#"["deploy-us/announce/post"]"#), "\(graph.stdout)")
        let dot = try await FlowProcess.run(["graph", root + "/main.yaml", "--format", "dot"])
        #expect(dot.stdout.contains(#""deploy-eu/publish" [label="deploy-eu/publish"];"#), "\(dot.stdout)")
        let dryRun = try await FlowProcess.run(["run", root + "/main.yaml", "--dry-run"])
        #expect(dryRun.exitCode == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("deploy-us/publish: GET \(sandbox.baseURL)/mirror/us"), "\(dryRun.stdout)")
        #expect(
            dryRun.stdout.contains("deploy-us/announce/post: POST \(sandbox.baseURL)/notify"), "\(dryRun.stdout)")
        #expect(sandbox.events().count == paths.count, "a dry run sends nothing")
    }

    @Test func aForEachOverAUsesStepRunsTheFileOncePerItemWithItsOwnIds() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              deploy:
                for-each: [eu, us]
                uses: ./lib/deploy.yaml
                with: { api: "\(sandbox.baseURL)", region: "${{ item }}" }
              report:
                needs: deploy
                run: echo "names ${{ join(steps.deploy.outputs.name, ',') }}"
            """,
            "lib/deploy.yaml": Self.deploy,
            "lib/announce.yaml": Self.announce,
        ])
        let report = root + "/report.json"
        let outcome = try await FlowProcess.run(["run", root + "/main.yaml", "--report", "json", report])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let out = outcome.stdout
        #expect(out.contains("[report] | names eu-ok-eu,us-ok-us"), "\(out)")
        #expect(out.contains("[deploy[0]/publish] succeeded"), "\(out)")
        #expect(out.contains("[deploy[1]/announce/post] succeeded"), "\(out)")
        let paths = sandbox.events().map(\.path)
        #expect(paths.filter { $0 == "/mirror/eu" }.count == 1 && paths.filter { $0 == "/mirror/us" }.count == 1)
        #expect(paths.filter { $0 == "/notify" }.count == 2)
        let json = try String(contentsOfFile: report, encoding: .utf8)
        #expect(json.contains(#""id" : "deploy[1]/announce/post""#), "\(json)")

        // The dry run shows each item's run of the file, with the item in `with` applied.
        let dryRun = try await FlowProcess.run(["run", root + "/main.yaml", "--dry-run"])
        #expect(dryRun.exitCode == 0, "\(dryRun.stderr)")
        #expect(
            dryRun.stdout.contains("deploy[0]: uses \(root)/lib/deploy.yaml with api=\(sandbox.baseURL), region=eu"),
            "\(dryRun.stdout)")
        #expect(dryRun.stdout.contains("deploy[1]/publish: GET \(sandbox.baseURL)/mirror/us"), "\(dryRun.stdout)")
        #expect(sandbox.events().count == paths.count, "a dry run sends nothing")
    }

    @Test func aFailureInACalledFileNamesTheStepAndItsPlaceAndSecretsStayMasked() async throws {
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              deploy:
                uses: ./lib/fail.yaml
              later: { needs: deploy, run: echo never }
            """,
            "lib/fail.yaml": """
            version: 1
            steps:
              check:
                run: echo "token=${{ secrets.TOKEN }}"; exit 3
            """,
        ])
        let report = root + "/report.json"
        let outcome = try await FlowProcess.run(
            ["run", root + "/main.yaml", "--report", "json", report], environment: ["FLOW_SECRET_TOKEN": "tok-5e4d3c2b"]
        )
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        let out = outcome.stdout
        #expect(out.contains("[deploy/check] | token=***"), "\(out)")
        #expect(out.contains("  ✗ deploy/check (\(root)/lib/fail.yaml:4:"), "\(out)")
        #expect(out.contains("  ✗ deploy (\(root)/lib/fail.yaml:4:"), "\(out)")
        #expect(out.contains("step 'deploy/check' failed"), "\(out)")
        #expect(out.contains(#"    4 |     run: echo "token="#), "the called file's line: \(out)")
        #expect(out.contains("[later] skipped"))
        let json = try String(contentsOfFile: report, encoding: .utf8)
        #expect(json.contains(#""id" : "deploy/check""#))
        for text in [outcome.stdout, outcome.stderr, json] {
            #expect(!text.contains("tok-5e4d3c2b"))
        }
    }

    @Test func anInvalidCalledFileIsReportedInItselfAndExitsTwo() async throws {
        let root = try folder([
            "main.yaml": "version: 1\nsteps:\n  d: { uses: ./lib/bad.yaml }\n",
            "lib/bad.yaml": "version: 1\nsteps:\n  a: { run: echo, neds: [x] }\n",
        ])
        let outcome = try await FlowProcess.run(["validate", root + "/main.yaml"])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("\(root)/lib/bad.yaml:3:19: error: unknown key 'neds'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("    3 |   a: { run: echo, neds: [x] }"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("\(root)/main.yaml:3:14: error: step 'd' uses"), "\(outcome.stderr)")
    }

    @Test func sigintKillsTheProcessOfACalledStep() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-uses-\(UUID()).pid").path
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              outer: { uses: ./inner.yaml }
              after: { needs: outer, if: always(), run: echo after }
            """,
            "inner.yaml": """
            version: 1
            steps:
              work: { run: "sleep 30 & echo $! > \(pidFile); wait" }
            """,
        ])
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = ["run", root + "/main.yaml"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        for _ in 0..<1000 where !FileManager.default.fileExists(atPath: pidFile) {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await Task.sleep(for: .milliseconds(100))
        let grandchild =
            pid_t(
                (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
                    ?? "") ?? 0
        kill(process.processIdentifier, SIGINT)
        // Read on a thread of its own: blocking the concurrency pool could starve other tests.
        let text: String = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: String(decoding: data, as: UTF8.self))
            }.start()
        }
        #expect(process.terminationStatus == 130)
        #expect(text.contains("[outer/work] cancelled"), "\(text)")
        #expect(text.contains("[outer] cancelled"), "\(text)")
        #expect(text.contains("[after] | after"), "\(text)")
        #expect(grandchild > 0 && !isRunning(grandchild), "the called command's children must not outlive the run")
    }
}
