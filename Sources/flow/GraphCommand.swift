import ArgumentParser
import FlowKit

/// `flow graph`: prints the workflow's DAG for Mermaid or Graphviz.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a workflow's steps and dependencies as a Mermaid or Graphviz (DOT) graph.",
        discussion: """
            Groups are drawn as subgraphs labelled with how they finish: any, all or at-least k. \
            An invalid file prints its diagnostics, as `flow validate` does, and exits with 2.
            """
    )

    /// The graph languages `--format` accepts.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid
        case dot
    }

    @Argument(help: "The workflow file.")
    var file: String

    @Option(help: "The graph language: mermaid (for Markdown) or dot (for Graphviz).")
    var format: Format = .mermaid

    func run() throws {
        let result = FlowWorkflow.check(contentsOf: file, hostSteps: nil)
        StandardError.write(result.rendered)
        guard let workflow = result.workflow else {
            throw FlowExit.invalid.exitCode
        }
        switch format {
        case .mermaid: print(workflow.mermaidGraph, terminator: "")
        case .dot: print(workflow.dotGraph, terminator: "")
        }
    }
}
