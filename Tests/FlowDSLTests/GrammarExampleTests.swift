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

    /// The fenced blocks opened by ```yaml or ```yaml invalid, with the line of their first YAML line.
    static func blocks(in text: String) -> [Example] {
        var examples: [Example] = []
        var current: [String]?
        var invalid = false
        var start = 0
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if current == nil, line == "```yaml" || line == "```yaml invalid" {
                current = []
                invalid = line.hasSuffix("invalid")
                start = index + 2
            } else if let lines = current, line == "```" {
                examples.append(Example(source: lines.joined(separator: "\n") + "\n", line: start, invalid: invalid))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return examples
    }

    static var grammarExamples: [Example] {
        let url = packageRoot.appendingPathComponent("Grammar.md")
        return (try? String(contentsOf: url, encoding: .utf8)).map(blocks(in:)) ?? []
    }

    @Test func grammarHasAnExamplePerConstruct() {
        let examples = Self.grammarExamples
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
