import FlowDSL
import Foundation
import Testing

/// `uses`: the called files are read and checked with the caller, each mistake reported at its
/// place — in the caller or in the called file — with a hint.
@Suite struct UsesCheckTests {
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

    /// `file:line:col: message (hint)` of every error, with the folder cut off the file names.
    private func errors(_ result: CheckResult, in root: String) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            let place =
                diagnostic.location.map {
                    "\($0.file.replacingOccurrences(of: root + "/", with: "")):\($0.line):\($0.column): "
                } ?? ""
            return place + diagnostic.message + (diagnostic.hint.map { " (\($0))" } ?? "")
        }
    }

    private let deploy = """
        version: 1
        inputs:
          region: { type: string, required: true }
          replicas: { type: number, default: 1 }
        steps:
          publish:
            run: echo "${{ inputs.region }}"
            outputs: { text: "${{ result.stdout }}" }
        outputs:
          url: https://example.com/${{ steps.publish.outputs.text }}
        """

    @Test func aValidCallerHasItsCalledFilesAndTheirOutputs() throws {
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              eu:
                uses: ./lib/deploy.yaml
                with: { region: eu, replicas: 3 }
              after:
                needs: eu
                run: echo ${{ steps.eu.outputs.url }}
            """,
            "lib/deploy.yaml": deploy,
        ])
        let result = WorkflowLoader.load(path: root + "/main.yaml")
        #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
        let workflow = try #require(result.workflow)
        #expect(workflow.called.count == 1)
        #expect(workflow.step("eu/publish")?.id == "publish")
        #expect(workflow.qualifiedSteps.map(\.id) == ["eu", "eu/publish", "after"])
        #expect(result.calledFiles[root + "/lib/deploy.yaml"]?.isEmpty == false)
    }

    @Test func aMissingFileIsAnErrorAtTheUsesLine() throws {
        let root = try folder(["main.yaml": "version: 1\nsteps:\n  d:\n    uses: ./nope.yaml\n"])
        let result = WorkflowLoader.load(path: root + "/main.yaml")
        let found = errors(result, in: root)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("main.yaml:4:11: step 'd' uses './nope.yaml': cannot read") == true, "\(found)")
        #expect(found.first?.contains("no such file") == true)
        #expect(found.first?.contains("relative to the file that uses it") == true)
    }

    @Test func aURLIsAnErrorWithAHint() {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  d:\n    uses: https://example.com/deploy.yaml\n", file: "m.yaml")
        #expect(
            errors(result, in: "") == [
                "m.yaml:4:11: 'uses' takes a local workflow file, not a URL ('https://example.com/deploy.yaml') (download the file next to this one and write 'uses: ./name.yaml')"
            ])
    }

    @Test func aCycleOfFilesNamesTheChain() throws {
        let root = try folder([
            "a.yaml": "version: 1\nsteps:\n  to-b: { uses: ./b.yaml }\n",
            "b.yaml": "version: 1\nsteps:\n  to-a: { uses: ./a.yaml }\n",
        ])
        let result = WorkflowLoader.load(path: root + "/a.yaml")
        let found = errors(result, in: root)
        #expect(
            found.contains {
                $0.hasPrefix("b.yaml:3:17: the workflow files use each other in a cycle: ")
                    && $0.contains("a.yaml → \(root)/b.yaml → \(root)/a.yaml")
            }, "\(found)")
        #expect(result.hasErrors)
        // The caller says the file it uses is not valid.
        #expect(found.contains { $0.hasPrefix("a.yaml:3:17: step 'to-b' uses") && $0.contains("not valid") })
    }

    @Test func withIsCheckedAgainstTheCalledInputs() throws {
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              eu:
                uses: ./deploy.yaml
                with: { regoin: eu, replicas: many }
            """,
            "deploy.yaml": deploy,
        ])
        let found = errors(WorkflowLoader.load(path: root + "/main.yaml"), in: root)
        #expect(
            found == [
                "main.yaml:4:11: step 'eu' does not give input 'region', which \(root)/deploy.yaml requires (add it under 'with:' (region: …); it is declared at \(root)/deploy.yaml:3:3)",
                "main.yaml:5:13: unknown input 'regoin' in 'with': \(root)/deploy.yaml has no such input (did you mean 'region'?)",
                "main.yaml:5:35: input 'replicas' of \(root)/deploy.yaml must be a number, not 'many' (it is declared at \(root)/deploy.yaml:4:3)",
            ], "\(found)")
    }

    @Test func aProblemInTheCalledFileIsReportedThereWithItsLine() throws {
        let root = try folder([
            "main.yaml": "version: 1\nsteps:\n  d: { uses: ./lib/bad.yaml }\n",
            "lib/bad.yaml": "version: 1\nsteps:\n  a: { run: echo }\n  b: { needs: [aa], run: echo }\n",
        ])
        let result = WorkflowLoader.load(path: root + "/main.yaml")
        let found = errors(result, in: root)
        #expect(
            found.first
                == "main.yaml:3:14: step 'd' uses './lib/bad.yaml', which is not valid (fix the errors reported in \(root)/lib/bad.yaml)",
            "\(found)")
        #expect(found.contains { $0.hasPrefix("lib/bad.yaml:4:16: step 'b' needs unknown step 'aa'") }, "\(found)")
        // Rendered with the called file's own line under it.
        let text = result.renderedDiagnostics()
        #expect(
            text.contains(
                "\(root)/lib/bad.yaml:4:16: error: step 'b' needs unknown step 'aa'\n    4 |   b: { needs: [aa], run: echo }"
            ), "\(text)")
    }

    @Test func retryServicesAndUnknownOutputsAreErrors() throws {
        let root = try folder([
            "main.yaml": """
            version: 1
            steps:
              d:
                uses: ./deploy.yaml
                with: { region: eu }
                retry: 2
              s: { uses: ./served.yaml }
              after: { needs: d, run: "echo ${{ steps.d.outputs.ulr }}" }
            """,
            "deploy.yaml": deploy,
            "served.yaml": """
            version: 1
            services:
              api: { run: sleep 60 }
            steps:
              a: { run: echo }
            """,
        ])
        let found = errors(WorkflowLoader.load(path: root + "/main.yaml"), in: root)
        #expect(found.contains { $0.hasPrefix("main.yaml:6:5: 'retry' does not apply to 'uses' steps") }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix("main.yaml:7:14: step 's' uses") && $0.contains("a called file cannot start services")
            }, "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix("main.yaml:8:") && $0.hasSuffix("step 'd' has no output 'ulr' (did you mean 'url'?)")
            }, "\(found)")
    }
}
