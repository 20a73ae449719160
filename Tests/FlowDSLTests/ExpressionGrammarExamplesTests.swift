import FlowDSL
import Foundation
import Testing

/// The examples in the "Expressions" section of Grammar.md are executable: if the reference and the
/// code disagree, this fails, so the reference cannot drift.
@Suite struct ExpressionGrammarExamplesTests {
    /// The values the Grammar.md examples say they read.
    let context = ExpressionTestContext(
        roots: [
            "inputs": ["name": "demo", "count": 3, "tags": ["api", "beta"], "empty": ""],
            "env": ["HOME": "/root"],
            "steps": ["login": ["status": "succeeded", "outputs": ["token": "abc", "user-id": 7]]],
        ])

    /// The lines of the "## Expressions" section of Grammar.md.
    func expressionsSection() throws -> [Substring] {
        let grammar = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Grammar.md")
        let text = try String(contentsOf: grammar, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "## Expressions"))
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.endIndex
        return Array(lines[start..<end])
    }

    @Test func everyExampleEvaluatesAsDocumented() throws {
        let section = try expressionsSection()
        let intro = try #require(section.firstIndex { $0.contains("`ExpressionGrammarExamplesTests`") })
        let open = try #require(section[intro...].firstIndex(of: "```text"))
        let close = try #require(section[(open + 1)...].firstIndex(of: "```"))
        let examples = section[(open + 1)..<close]
        #expect(examples.count >= 30)
        for line in examples {
            let parts = line.components(separatedBy: " ⇒ ")
            try #require(parts.count == 2, "malformed example line: \(line)")
            let source = parts[0].trimmingCharacters(in: .whitespaces)
            let expected = parts[1].trimmingCharacters(in: .whitespaces)
            let expression = try Expression.parse(source)
            if expected.hasPrefix("error: ") {
                #expect(throws: EvaluationError.self, "\(source)") { try expression.evaluate(context) }
                do {
                    _ = try expression.evaluate(context)
                } catch {
                    #expect(error.message == String(expected.dropFirst("error: ".count)), "\(source)")
                }
            } else {
                #expect(try expression.evaluate(context) == Value(jsonText: expected), "\(source)")
            }
        }
    }

    @Test func everySyntaxErrorIsReportedAsDocumented() throws {
        let section = try expressionsSection()
        let rows = section.filter { $0.hasPrefix("| `${{") }
        #expect(rows.count >= 9)
        for row in rows {
            // | `input` | `message` (optional remark) |
            let cells = row.split(separator: "`", omittingEmptySubsequences: false)
            try #require(cells.count >= 5, "malformed row: \(row)")
            let input = String(cells[1])
            let message = String(cells[3])
            #expect(throws: ExpressionSyntaxError.self, "\(input)") { try Template.parse(input) }
            do {
                _ = try Template.parse(input)
            } catch {
                #expect(error.message == message, "\(input)")
            }
        }
    }
}
