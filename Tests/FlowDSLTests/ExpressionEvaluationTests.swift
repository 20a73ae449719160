import FlowDSL
import Testing

@Suite struct ExpressionEvaluationTests {
    let context = ExpressionTestContext(
        roots: [
            "inputs": ["name": "demo", "count": 3, "flag": false, "empty": ""],
            "steps": [
                "login": ["status": "succeeded", "outputs": ["token": "abc", "user-id": 7]],
                "list": ["outputs": ["items": ["x", "y", "z"], "byName": ["k-1": "v1"]]],
            ],
            "env": ["HOME": "/root"],
        ],
        status: ["success": true, "failure": false, "always": true, "cancelled": false])

    @Test(arguments: [
        ("inputs.name", Value.string("demo")),
        ("inputs['name']", .string("demo")),
        ("inputs[\"name\"]", .string("demo")),
        ("steps.login.outputs.token", .string("abc")),
        ("steps.login.outputs.user-id", .number(7)),
        ("steps.list.outputs.items[0]", .string("x")),
        ("steps.list.outputs.items[2]", .string("z")),
        ("steps.list.outputs.byName['k-1']", .string("v1")),
        ("steps.list.outputs.items[inputs.count]", .null),
        ("steps['login'].outputs['token']", .string("abc")),
    ])
    func readsPropertiesAndIndexes(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        "inputs.missing",
        "inputs.missing.deeper.still",
        "steps.nope.outputs.token",
        "steps.list.outputs.items[3]",
        "steps.list.outputs.items[-1]",
        "steps.list.outputs.items[0.5]",
        "steps.list.outputs.items['0']",
        "steps.list.outputs.byName[0]",
        "inputs.name.length",
        "inputs.count.x",
        "inputs.Name",
    ])
    func aMissingPropertyIsNull(source: String) throws {
        #expect(try evaluate(source, in: context) == .null)
    }

    @Test func anUnavailableRootIsAnError() throws {
        let error = try evaluationError("inputs.name == result.status", in: context)
        #expect(error == EvaluationError(message: "'result' is not available here", offset: 15, length: 6))
    }

    @Test(arguments: [
        // Numbers compare numerically, whatever their spelling.
        ("1 == 1.0", true), ("0x10 == 16", true), ("1e2 == 100", true), ("-0 == 0", true),
        // Strings compare case-sensitively.
        ("'abc' == 'abc'", true), ("'abc' == 'ABC'", false), ("'abc' != 'ABC'", true),
        // Different types are never equal: no conversion.
        ("1 == '1'", false), ("1 != '1'", true), ("true == 1", false), ("null == false", false),
        ("null == ''", false), ("null == null", true), ("inputs.missing == null", true),
        // Arrays and objects compare by content.
        ("fromJSON('[1,{\"a\":2}]') == fromJSON('[1.0,{\"a\":2}]')", true),
        ("fromJSON('[1,2]') == fromJSON('[2,1]')", false),
        ("fromJSON('{\"a\":1}') == fromJSON('{\"a\":1,\"b\":2}')", false),
        // Ordering: numbers and strings only.
        ("1 < 2", true), ("2 <= 2", true), ("3 > 2.5", true), ("2 >= 3", false),
        ("'a' < 'b'", true), ("'B' < 'a'", true), ("'abc' <= 'abd'", true),
        ("1 < '2'", false), ("1 > '0'", false), ("null < 1", false), ("false < true", false),
        ("inputs.count > 2", true),
    ])
    func comparesWithDocumentedRules(source: String, expected: Bool) throws {
        #expect(try evaluate(source, in: context) == .bool(expected))
    }

    @Test(arguments: [
        // `&&` returns the first falsy operand, or the last one.
        ("'a' && 'b'", Value.string("b")),
        ("'' && 'b'", .string("")),
        ("0 && fromJSON('not json')", .number(0)),
        ("null && x.y", .null),
        // `||` returns the first truthy operand, or the last one.
        ("'' || 'fallback'", .string("fallback")),
        ("inputs.missing || 'default'", .string("default")),
        ("inputs.name || fromJSON('not json')", .string("demo")),
        ("false || 0", .number(0)),
        ("1 || x.y", .number(1)),
    ])
    func logicalOperatorsShortCircuitAndReturnAnOperand(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test func theRightOperandIsEvaluatedWhenNeeded() throws {
        #expect(try evaluationError("true && x", in: context)?.message == "'x' is not available here")
        #expect(try evaluationError("false || fromJSON('{')", in: context)?.offset == 9)
    }

    @Test(arguments: [
        ("!null", true), ("!0", true), ("!''", true), ("!'0'", false), ("!'false'", false),
        ("!fromJSON('[]')", false), ("!fromJSON('{}')", false), ("!1", false), ("!-0.0", true),
    ])
    func notUsesTruthiness(source: String, expected: Bool) throws {
        #expect(try evaluate(source, in: context) == .bool(expected))
    }

    @Test(arguments: [
        ("success()", true), ("failure()", false), ("always()", true), ("cancelled()", false),
        ("success() && !cancelled()", true),
    ])
    func statusFunctionsAreAnsweredByTheContext(source: String, expected: Bool) throws {
        #expect(try evaluate(source, in: context) == .bool(expected))
    }

    @Test func statusFunctionsFailWhereTheContextHasNoAnswer() throws {
        let error = try evaluationError("1 == 1 && success()")
        #expect(
            error == EvaluationError(message: "success() is only available in a step's 'if'", offset: 10, length: 9))
    }

    @Test func statusFunctionsTakeNoArguments() throws {
        let error = try evaluationError("always(1)", in: context)
        #expect(error == EvaluationError(message: "always() takes 0 arguments, got 1", offset: 0, length: 9))
    }

    @Test func expressionsAreEqualWhenTheirTextIs() throws {
        #expect(try Expression.parse("a.b") == Expression.parse("a.b"))
        #expect(try Expression.parse("a.b") != Expression.parse("a .b"))
        #expect(try Set([Expression.parse("1"), Expression.parse("1")]).count == 1)
    }
}

/// Roots and status answers for evaluating expressions in tests, as the engine supplies them.
struct ExpressionTestContext: EvaluationContext {
    var roots: [String: Value] = [:]
    var status: [String: Bool] = [:]

    func value(ofRoot name: String) -> Value? { roots[name] }
    func statusFunction(_ function: StatusFunction) -> Bool? { status[function.rawValue] }
}

/// Parses and evaluates `source`, throwing whichever error comes first.
func evaluate(_ source: String, in context: ExpressionTestContext = ExpressionTestContext()) throws -> Value {
    try Expression.parse(source).evaluate(context)
}

/// The syntax error `source` raises, or `nil` when it parses.
func syntaxError(_ source: String) -> ExpressionSyntaxError? {
    do {
        _ = try Expression.parse(source)
        return nil
    } catch {
        return error
    }
}

/// The evaluation error `source` raises, or `nil` when it evaluates; a syntax error is thrown.
func evaluationError(
    _ source: String, in context: ExpressionTestContext = ExpressionTestContext()
) throws -> EvaluationError? {
    let expression = try Expression.parse(source)
    do {
        _ = try expression.evaluate(context)
        return nil
    } catch {
        return error
    }
}
