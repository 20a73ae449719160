import FlowDSL
import Foundation
import Testing

/// Every example of Grammar.md validates (and every ```yaml invalid one fails), and so does the
/// complete example of the language contract, so the reference cannot drift from the checker.
@Suite struct GrammarExampleTests {
    struct Example: CustomStringConvertible {
        let source: String
        let line: Int
        let invalid: Bool
        var description: String { "Grammar.md:\(line)\(invalid ? " (invalid)" : "")" }
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The fenced blocks opened by ```yaml or ```yaml invalid (also indented, inside a list item),
    /// with the line of their first YAML line and the fence's indentation removed.
    static func blocks(in text: String) -> [Example] {
        var examples: [Example] = []
        var current: [String]?
        var invalid = false
        var indent = 0
        var start = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            if current == nil, trimmed == "```yaml" || trimmed == "```yaml invalid" {
                current = []
                invalid = trimmed.hasSuffix("invalid")
                indent = line.count - trimmed.count
                start = index + 2
            } else if let lines = current, trimmed == "```" {
                examples.append(Example(source: lines.joined(separator: "\n") + "\n", line: start, invalid: invalid))
                current = nil
            } else if current != nil {
                current?.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
            }
        }
        return examples
    }

    static var grammarExamples: [Example] {
        let url = packageRoot.appendingPathComponent("Grammar.md")
        return (try? String(contentsOf: url, encoding: .utf8)).map(blocks(in:)) ?? []
    }

    @Test func grammarHasAnExamplePerConstruct() throws {
        let examples = Self.grammarExamples
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("Grammar.md"), encoding: .utf8)
        let fences = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("```yaml") }
        // `yaml context` blocks (the Expressions section's evaluation contexts) are not workflows;
        // nor are `yaml overlay` blocks (what `flow export argo --overlay` reads); any other info
        // string is a typo that would silently skip an example.
        let notWorkflows: Set<String> = ["```yaml context", "```yaml overlay"]
        #expect(Set(fences).isSubset(of: notWorkflows.union(["```yaml", "```yaml invalid"])))
        #expect(examples.count == fences.filter { !notWorkflows.contains($0) }.count)
        #expect(examples.filter { !$0.invalid }.count >= 14)
        #expect(examples.contains { $0.invalid })
    }

    @Test(arguments: GrammarExampleTests.grammarExamples)
    func grammarExampleChecks(_ example: Example) {
        let result = WorkflowLoader.check(source: example.source, file: "Grammar.md")
        if example.invalid {
            #expect(result.hasErrors, "the example at \(example) should fail")
        } else {
            #expect(!result.hasErrors, "\(example):\n\(result.renderedDiagnostics())")
        }
    }

    @Test func languageContractExampleChecks() throws {
        let url = Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/LANGUAGE.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            print("skipped: \(url.path) is absent (the language contract lives next to the repository)")
            return
        }
        let examples = Self.blocks(in: text)
        try #require(!examples.isEmpty)
        for example in examples {
            let result = WorkflowLoader.check(source: example.source, file: "LANGUAGE.md")
            #expect(!result.hasErrors, "LANGUAGE.md:\(example.line):\n\(result.renderedDiagnostics())")
        }
    }
}
