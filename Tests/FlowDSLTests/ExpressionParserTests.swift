import FlowDSL
import Testing

@Suite struct ExpressionParserTests {
    @Test(arguments: [
        // `&&` binds tighter than `||`.
        ("true || false && false", Value.bool(true)),
        ("(true || false) && false", .bool(false)),
        // Ordering binds tighter than equality, equality tighter than `&&`.
        ("1 < 2 == true", .bool(true)),
        ("true == 1 < 2", .bool(true)),
        ("1 == 1 && 2 == 2", .bool(true)),
        // `!` binds tightest.
        ("!false == true", .bool(true)),
        ("!(1 == 1)", .bool(false)),
        ("!!'x'", .bool(true)),
        // Chains are left-associative: (1 == 1) == true.
        ("1 == 1 == true", .bool(true)),
        ("3 > 2 > 1", .bool(false)),
        // Access binds tighter than everything.
        ("!a.missing", .bool(true)),
        ("a.list[1] == 'y'", .bool(true)),
    ])
    func respectsPrecedence(source: String, expected: Value) throws {
        let context = ExpressionTestContext(roots: ["a": ["list": ["x", "y"]]])
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        ("", 0, 1, "empty expression"),
        ("   ", 0, 3, "empty expression"),
        ("f(1, 2", 6, 1, "expected ')' to close '(' at 1, found the end of the expression"),
        ("(1 == 2", 7, 1, "expected ')' to close '(' at 0, found the end of the expression"),
        ("(1 2)", 3, 1, "expected ')' to close '(' at 0, found number 2"),
        ("a[0", 3, 1, "expected ']' to close '[' at 1, found the end of the expression"),
        ("a.", 2, 1, "expected a property name after '.' at 1, found the end of the expression"),
        ("a.0", 2, 1, "expected a property name after '.' at 1, found number 0"),
        ("a b", 2, 1, "unexpected 'b' after the end of the expression"),
        ("1 == ", 5, 1, "expected a value, found the end of the expression"),
        ("== 1", 0, 2, "expected a value, found '=='"),
        ("f(,)", 2, 1, "expected a value, found ','"),
        ("f(1,)", 4, 1, "expected a value, found ')'"),
        ("a.b(1)", 3, 1, "unexpected '(' after the end of the expression"),
        ("a ! b", 2, 1, "unexpected '!' after the end of the expression"),
        (")", 0, 1, "expected a value, found ')'"),
        ("'a' 'b'", 4, 3, "unexpected string 'b' after the end of the expression"),
        (
            "1 " + String(repeating: "x", count: 40), 2, 40,
            "unexpected '\(String(repeating: "x", count: 31))…' after the end of the expression"
        ),
    ])
    func reportsSyntaxErrorsWithTheirColumn(source: String, offset: Int, length: Int, message: String) {
        #expect(syntaxError(source) == ExpressionSyntaxError(offset: offset, length: length, message: message))
    }

    @Test func collectsReferencesWithOffsets() throws {
        let expression = try Expression.parse("steps.login.outputs.token == inputs['user-name'] && env.HOME")
        #expect(
            expression.references == [
                Reference(
                    root: "steps", path: [.key("login"), .key("outputs"), .key("token")], offset: 0, length: 25),
                Reference(root: "inputs", path: [.key("user-name")], offset: 29, length: 19),
                Reference(root: "env", path: [.key("HOME")], offset: 52, length: 8),
            ])
    }

    @Test func aComputedIndexEndsTheStaticPath() throws {
        let expression = try Expression.parse("result.json[inputs.key].name")
        #expect(
            expression.references == [
                Reference(root: "result", path: [.key("json"), .dynamic], offset: 0, length: 23),
                Reference(root: "inputs", path: [.key("key")], offset: 12, length: 10),
            ])
    }

    @Test func literalIndexesStayInThePath() throws {
        let expression = try Expression.parse("result.json.items[0]['first name'][1.5]")
        #expect(
            expression.references.map(\.path) == [
                [.key("json"), .key("items"), .index(0), .key("first name"), .dynamic]
            ])
        #expect(expression.references.first?.description == "result.json.items[0]['first name'][*]")
    }

    @Test(arguments: [
        "env['my var']", "inputs['it''s']", "steps.a-b.outputs.x_1", "result.json[0][12]", "secrets",
        "steps.x.outputs[*]",
    ])
    func describesAReferenceAsItIsWritten(text: String) throws {
        // `[*]` stands for a computed index; parse one and compare with the description.
        let source = text.replacing("[*]", with: "[inputs.key]")
        let reference = try #require(Expression.parse(source).references.first)
        #expect(reference.description == text)
    }

    @Test func referencesInsideCallsAndParenthesesAreFound() throws {
        let expression = try Expression.parse("length(fromJSON(steps.a.outputs.x).list) > (inputs.n)")
        #expect(expression.references.map(\.description) == ["steps.a.outputs.x", "inputs.n"])
        #expect(expression.references.map(\.offset) == [16, 44])
    }

    @Test func aBareRootIsAReference() throws {
        #expect(
            try Expression.parse(" secrets ").references == [Reference(root: "secrets", path: [], offset: 1, length: 7)]
        )
    }

    @Test func literalsAreNotReferences() throws {
        #expect(try Expression.parse("true && null == 'steps.x'").references.isEmpty)
    }

    @Test func collectsFunctionCallsWithOffsets() throws {
        let expression = try Expression.parse("format('{0}', length(a)) || successs()")
        #expect(
            expression.functionCalls == [
                FunctionCall(name: "format", argumentCount: 2, offset: 0, length: 24),
                FunctionCall(name: "length", argumentCount: 1, offset: 14, length: 9),
                FunctionCall(name: "successs", argumentCount: 0, offset: 28, length: 10),
            ])
    }

    @Test func unknownFunctionsParseSoTheCheckerCanSuggestAName() throws {
        let expression = try Expression.parse("lenght(x)")
        #expect(expression.functionCalls.map(\.name) == ["lenght"])
        let error = try evaluationError("lenght(x)", in: ExpressionTestContext(roots: ["x": "abc"]))
        #expect(
            error == EvaluationError(message: "unknown function 'lenght', did you mean 'length'?", offset: 0, length: 9)
        )
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = 64
        let source = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(try evaluate(source) == 1)
    }

    @Test(arguments: [
        (String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65), 64),
        (String(repeating: "!", count: 65) + "true", 64),
        (String(repeating: "length(", count: 65) + "'x'" + String(repeating: ")", count: 65), 64 * 7 + 6),
        ("a" + String(repeating: "[a", count: 65) + String(repeating: "]", count: 65), 1 + 2 * 64),
    ])
    func refusesNestingBeyondTheLimit(source: String, offset: Int) {
        let error = syntaxError(source)
        #expect(error?.message == "expression nests too deeply (more than 64 levels)")
        #expect(error?.offset == offset)
    }

    @Test func refusesHundredThousandLevelsWithoutCrashing() {
        let source = String(repeating: "(", count: 100_000)
        #expect(syntaxError(source)?.offset == 64)
    }

    @Test func longFlatChainsParseAndEvaluate() throws {
        // 20,000 operands: a chain is a flat list, so neither parsing nor evaluation recurses per operand.
        let source = Array(repeating: "true", count: 20_000).joined(separator: " && ")
        #expect(try evaluate(source) == true)
        let access = "a" + String(repeating: ".b", count: 20_000)
        #expect(try evaluate(access, in: ExpressionTestContext(roots: ["a": [:]])) == .null)
    }
}
