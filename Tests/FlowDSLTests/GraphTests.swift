import FlowDSL
import Foundation
import Testing

@Suite struct GraphTests {
    /// Plain steps, an `any` race, a quorum, an `all` group without fail-fast, and two ids Mermaid
    /// cannot take as they are (`end` is a keyword; `-` could start an arrow).
    static let workflow = """
        version: 1
        name: deploy
        steps:
          build: { run: make }
          mirror:
            needs: build
            parallel: any
            steps:
              eu: { http: { url: "http://127.0.0.1:1/eu" } }
              us: { http: { url: "http://127.0.0.1:1/us" } }
          quorum:
            needs: build
            parallel: any
            at-least: 2
            steps:
              a: { sleep: 1s }
              b: { sleep: 1s }
              c: { sleep: 1s }
          notify:
            name: Tell the team
            needs: [mirror, quorum]
            parallel: all
            fail-fast: false
            steps:
              mail: { run: echo mail }
              end: { run: echo end }
          release-notes:
            needs: notify
            run: echo done
        """

    static func checked(_ source: String) throws -> Workflow {
        let result = WorkflowLoader.check(source: source, file: "deploy.yaml")
        return try #require(result.workflow, "\(result.renderedDiagnostics())")
    }

    @Test func mermaidDrawsGroupsAsLabelledSubgraphs() throws {
        let expected = """
            ---
            title: deploy
            ---
            flowchart TD
                build["build"]
                subgraph mirror["mirror (any)"]
                    eu["eu"]
                    us["us"]
                end
                subgraph quorum["quorum (at-least 2)"]
                    a["a"]
                    b["b"]
                    c["c"]
                end
                subgraph notify["notify: Tell the team (all, no fail-fast)"]
                    mail["mail"]
                    step11["end"]
                end
                step12["release-notes"]
                build --> mirror
                build --> quorum
                mirror --> notify
                quorum --> notify
                notify --> step12

            """
        #expect(try Self.checked(Self.workflow).mermaidGraph == expected)
    }

    @Test func dotDrawsGroupsAsClustersWithEdgesClippedAtTheirBorder() throws {
        let expected = """
            digraph "deploy" {
                compound=true;
                rankdir=TB;
                node [shape=box];
                "build" [label="build"];
                subgraph "cluster_mirror" {
                    label="mirror (any)";
                    "mirror" [shape=point, style=invis];
                    "eu" [label="eu"];
                    "us" [label="us"];
                }
                subgraph "cluster_quorum" {
                    label="quorum (at-least 2)";
                    "quorum" [shape=point, style=invis];
                    "a" [label="a"];
                    "b" [label="b"];
                    "c" [label="c"];
                }
                subgraph "cluster_notify" {
                    label="notify: Tell the team (all, no fail-fast)";
                    "notify" [shape=point, style=invis];
                    "mail" [label="mail"];
                    "end" [label="end"];
                }
                "release-notes" [label="release-notes"];
                "build" -> "mirror" [lhead="cluster_mirror"];
                "build" -> "quorum" [lhead="cluster_quorum"];
                "mirror" -> "notify" [ltail="cluster_mirror", lhead="cluster_notify"];
                "quorum" -> "notify" [ltail="cluster_quorum", lhead="cluster_notify"];
                "notify" -> "release-notes" [ltail="cluster_notify"];
            }

            """
        #expect(try Self.checked(Self.workflow).dotGraph == expected)
    }

    @Test func generatedMermaidIdsAvoidStepIdsThatLookGenerated() throws {
        // `step2` is a real id, so the generated id of the second step (`a-b`) must differ from it.
        let workflow = try Self.checked(
            """
            version: 1
            steps:
              step2: { run: x }
              a-b: { needs: step2, run: y }
            """
        )
        #expect(
            workflow.mermaidGraph == """
                flowchart TD
                    step2["step2"]
                    step2_["a-b"]
                    step2 --> step2_

                """
        )
    }

    @Test func labelsEscapeQuotes() throws {
        let workflow = try Self.checked(
            """
            version: 1
            name: say "hi"
            steps:
              a: { name: 'the "a" step', run: x }
            """
        )
        #expect(workflow.mermaidGraph.contains(#"a["a: the #quot;a#quot; step"]"#))
        #expect(workflow.dotGraph.contains(#""a" [label="a: the \"a\" step"];"#))
        #expect(workflow.dotGraph.hasPrefix(#"digraph "say \"hi\"" {"#))
    }

    static let graphviz = "/usr/bin/dot"

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: graphviz), "needs Graphviz (apt-get install graphviz)"))
    func graphvizLaysOutTheDOTWithEveryEdge() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.graphviz)
        process.arguments = ["-Tplain"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(try Self.checked(Self.workflow).dotGraph.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        // `-Tplain` lists one `edge` line per edge drawn: the five needs of the workflow.
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("edge ") }.count == 5, "\(text)")
    }
}
