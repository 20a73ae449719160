import ArgumentParser
import FlowKit

/// `flow schema`: prints the JSON Schema of the workflow language for editors.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema (draft 2020-12) of workflow files, for editors.",
        discussion: """
            Save it next to your workflows and point the YAML language server at it with a first line like
            `# yaml-language-server: $schema=flow.schema.json`, e.g. `flow schema > flow.schema.json`.
            """
    )

    func run() {
        print(FlowWorkflow.schema, terminator: "")
    }
}
