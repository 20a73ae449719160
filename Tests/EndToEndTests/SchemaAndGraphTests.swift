import Foundation
import Testing

@Suite struct SchemaAndGraphTests {
    @Test func schemaPrintsADraft202012JSONSchema() async throws {
        let outcome = try await FlowProcess.run(["schema"])
        #expect(outcome.exitCode == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        #expect(parsed?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect((parsed?["required"] as? [String]) == ["version", "steps"])
    }

    @Test func graphPrintsMermaidByDefaultAndDOTOnRequest() async throws {
        let file = try temporaryWorkflow(
            """
            version: 1
            steps:
              login: { http: { url: "http://127.0.0.1:1/login" } }
              race:
                needs: login
                parallel: any
                steps:
                  eu: { sleep: 1s }
                  us: { sleep: 2s }
            """
        )
        defer { try? FileManager.default.removeItem(atPath: file) }
        let mermaid = try await FlowProcess.run(["graph", file])
        #expect(mermaid.exitCode == 0)
        #expect(mermaid.stdout.hasPrefix("flowchart TD\n"))
        #expect(mermaid.stdout.contains(#"subgraph race["race (any)"]"#))
        #expect(mermaid.stdout.contains("login --> race"))
        let dot = try await FlowProcess.run(["graph", file, "--format", "dot"])
        #expect(dot.exitCode == 0)
        #expect(dot.stdout.contains(#""login" -> "race" [lhead="cluster_race"];"#))
    }

    @Test func graphOfAnInvalidFilePrintsDiagnosticsAndExits2() async throws {
        let file = try temporaryWorkflow("version: 1\nsteps:\n  a: { needs: [b], run: x }\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try await FlowProcess.run(["graph", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains(":3:16: error: step 'a' needs unknown step 'b'"))
    }

    @Test func graphRejectsAnUnknownFormatAsUsage() async throws {
        let outcome = try await FlowProcess.run(["graph", "x.yaml", "--format", "png"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.stderr.contains("png"))
    }

    private func temporaryWorkflow(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-graph-\(UUID().uuidString).yaml")
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }
}
