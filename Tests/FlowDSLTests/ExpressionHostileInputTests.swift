import FlowDSL
import Testing

/// The parsers are total: whatever the bytes, they return a value or a located error, never trap,
/// and take time linear in the input. These tests are the deterministic cousins of the fuzzer.
@Suite struct ExpressionHostileInputTests {
    static let fragments = [
        "${{", "}}", "{", "}", "$", "'", "''", "\"", "(", ")", "[", "]", ".", ",", "!", "==", "!=", "<", ">=",
        "&&", "||", "&", "|", "=", "-", "-1", "0x", "0xff", "1e", "1.5", "9999999999999999999999", "a", "steps",
        "inputs.x", "length(", "format('{0}'", "fromJSON(", "true", "null", " ", "\n", "\t", "é", "👋🏽",
        "\u{301}", "\u{0}", "\r\n", "#", "\\",
    ]

    /// Every error lies within the text (or just after it) and covers at least one Character.
    func checkLocated(_ error: ExpressionSyntaxError, in text: String) {
        #expect(
            error.offset >= 0 && error.offset <= text.count, "offset \(error.offset) outside \(text.debugDescription)")
        #expect(error.length >= 1)
        #expect(!error.message.isEmpty)
    }

    @Test func survivesRandomBytes() {
        var generator = SplitMix64(state: 4)
        for _ in 0..<3_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = String(decoding: bytes, as: UTF8.self)
            exercise(text)
        }
    }

    @Test func survivesRandomFragmentSoup() {
        var generator = SplitMix64(state: 7)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...24, using: &generator)
            let text = (0..<count).map { _ in Self.fragments.randomElement(using: &generator) ?? "" }.joined()
            exercise(text)
        }
    }

    func exercise(_ text: String) {
        let context = ExpressionTestContext(roots: ["a": ["b": [1]], "steps": [:], "inputs": ["x": "y"]])
        do {
            let expression = try Expression.parse(text)
            for reference in expression.references {
                #expect(reference.offset >= 0 && reference.offset + reference.length <= text.count)
            }
            _ = try? expression.evaluate(context)
        } catch {
            checkLocated(error, in: text)
        }
        do {
            let template = try Template.parse(text)
            for embedded in template.expressions {
                #expect(embedded.openingOffset + embedded.length <= text.count)
            }
            _ = try? template.evaluate(context)
            _ = template.render { _ in nil }
        } catch {
            checkLocated(error, in: text)
        }
    }

    @Test func longInputsStayLinear() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let longString = "'" + String(repeating: "x''", count: 100_000) + "'"
        #expect(try evaluate("length(\(longString))") == .number(200_000))
        let manyExpressions = String(repeating: "a ${{ 1 }} ", count: 20_000)
        #expect(try Template.parse(manyExpressions).expressions.count == 20_000)
        let unterminated = String(repeating: "${{ '", count: 50_000)
        #expect(throws: ExpressionSyntaxError.self) { try Template.parse(unterminated) }
        let manyArguments = "format('x'" + String(repeating: ", 1", count: 50_000) + ")"
        #expect(try evaluate(manyArguments) == "x")
        // A quadratic pass over these inputs would take minutes even in a release build.
        #expect(clock.now - started < .seconds(30))
    }
}
