import FlowDSL
import Testing

@Suite struct ExpressionFunctionTests {
    let context = ExpressionTestContext(
        roots: [
            "inputs": ["list": ["a", 1, true, nil], "obj": ["b": 2, "a": [1, 2]], "text": "Hello World"]
        ])

    @Test(arguments: [
        ("length('abc')", Value.number(3)),
        ("length('')", .number(0)),
        ("length('👋🏽é')", .number(2)),
        ("length(inputs.list)", .number(4)),
        ("length(inputs.obj)", .number(2)),
        ("contains(inputs.text, 'World')", .bool(true)),
        ("contains(inputs.text, 'world')", .bool(false)),
        ("contains('v1.2.3', 2)", .bool(true)),
        ("contains('is true', true)", .bool(true)),
        ("contains(inputs.list, 'a')", .bool(true)),
        ("contains(inputs.list, 1.0)", .bool(true)),
        ("contains(inputs.list, '1')", .bool(false)),
        ("contains(inputs.list, null)", .bool(true)),
        ("contains(fromJSON('[[1]]'), fromJSON('[1]'))", .bool(true)),
        ("startsWith(inputs.text, 'Hello')", .bool(true)),
        ("startsWith(inputs.text, 'hello')", .bool(false)),
        ("startsWith('abc', '')", .bool(true)),
        ("endsWith(inputs.text, 'World')", .bool(true)),
        ("endsWith(inputs.text, 'Hello')", .bool(false)),
        ("format('{0} of {1}', 1, 'two')", .string("1 of two")),
        ("format('{1}{0}{1}', 'a', 'b')", .string("bab")),
        ("format('{{0}} is {0}', 2.5)", .string("{0} is 2.5")),
        ("format('}}{{')", .string("}{")),
        ("format('no placeholders')", .string("no placeholders")),
        ("format('{0}|{1}|{2}', null, true, inputs.obj)", .string("|true|{\"a\":[1,2],\"b\":2}")),
        ("join(inputs.list)", .string("a,1,true,")),
        ("join(inputs.list, ' + ')", .string("a + 1 + true + ")),
        ("join(fromJSON('[]'), '-')", .string("")),
        ("join('already text', '-')", .string("already text")),
        ("toJSON(inputs.obj)", .string("{\"a\":[1,2],\"b\":2}")),
        ("toJSON('it''s \"quoted\"')", .string("\"it's \\\"quoted\\\"\"")),
        ("toJSON(null)", .string("null")),
        ("toJSON(3)", .string("3")),
        ("fromJSON('{\"n\": 1.5, \"l\": [true, null]}')", .object(["n": 1.5, "l": [true, nil]])),
        ("fromJSON('42')", .number(42)),
        ("fromJSON(toJSON(inputs.obj)) == inputs.obj", .bool(true)),
        ("fromJSON('{\"a\":{\"b\":[10,20]}}').a.b[1]", .number(20)),
    ])
    func computesResults(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        ("length(5)", "length() expects a string, array or object, got number"),
        ("length(null)", "length() expects a string, array or object, got null"),
        ("contains(5, 'a')", "contains() expects a string or an array to search, got number"),
        ("contains(inputs.obj, 'a')", "contains() expects a string or an array to search, got object"),
        ("contains('abc', inputs.list)", "contains() searches a string for a string, number or boolean, got array"),
        ("startsWith(1, '1')", "startsWith() expects a string as argument 1, got number"),
        ("endsWith('a', null)", "endsWith() expects a string as argument 2, got null"),
        ("format(1)", "format() expects a string pattern as argument 1, got number"),
        ("format('{1}', 'a')", "format() pattern uses {1} but only 1 value(s) follow it"),
        ("format('{0')", "format() pattern has an invalid placeholder; use {0}, {1}, … or {{ and }}"),
        ("format('{x}', 1)", "format() pattern has an invalid placeholder; use {0}, {1}, … or {{ and }}"),
        ("format('{}', 1)", "format() pattern has an invalid placeholder; use {0}, {1}, … or {{ and }}"),
        ("format('a } b')", "format() pattern has a lone '}'; write '}}' for a literal brace"),
        ("format('{99999999999999}', 1)", "format() pattern has an invalid placeholder; use {0}, {1}, … or {{ and }}"),
        ("join(inputs.obj)", "join() expects an array, got object"),
        ("join(inputs.list, 1)", "join() expects a string separator, got number"),
        ("fromJSON(1)", "fromJSON() expects a string, got number"),
        ("fromJSON('{\"a\":}')", "fromJSON() got invalid JSON: unexpected character in JSON at offset 5"),
        ("fromJSON('')", "fromJSON() got invalid JSON: unexpected end of JSON at offset 0"),
        ("fromJSON('[1] x')", "fromJSON() got invalid JSON: unexpected content after the JSON value at offset 4"),
    ])
    func rejectsWrongTypesAtTheCall(source: String, message: String) throws {
        let error = try evaluationError("  " + source, in: context)
        #expect(error == EvaluationError(message: message, offset: 2, length: source.count))
    }

    @Test(arguments: [
        ("length()", "length() takes 1 argument, got 0"),
        ("length('a', 'b')", "length() takes 1 argument, got 2"),
        ("contains('a')", "contains() takes 2 arguments, got 1"),
        ("startsWith('a', 'b', 'c')", "startsWith() takes 2 arguments, got 3"),
        ("endsWith()", "endsWith() takes 2 arguments, got 0"),
        ("format()", "format() takes at least 1 argument, got 0"),
        ("join()", "join() takes 1 or 2 arguments, got 0"),
        ("join(inputs.list, ',', ',')", "join() takes 1 or 2 arguments, got 3"),
        ("toJSON()", "toJSON() takes 1 argument, got 0"),
        ("fromJSON('1', '2')", "fromJSON() takes 1 argument, got 2"),
        ("success(true)", "success() takes 0 arguments, got 1"),
        ("cancelled(1, 2)", "cancelled() takes 0 arguments, got 2"),
    ])
    func rejectsWrongArity(source: String, message: String) throws {
        let error = try evaluationError(source, in: context)
        #expect(error == EvaluationError(message: message, offset: 0, length: source.count))
    }

    @Test func arityIsPublishedForTheChecker() {
        #expect(Functions.arity("length") == 1...1)
        #expect(Functions.arity("contains") == 2...2)
        #expect(Functions.arity("join") == 1...2)
        #expect(Functions.arity("format")?.lowerBound == 1)
        #expect(Functions.arity("format")?.contains(50) == true)
        #expect(Functions.arity("always") == 0...0)
        #expect(Functions.arity("Length") == nil)
        #expect(Functions.arity("nope") == nil)
        #expect(Functions.names.allSatisfy { Functions.arity($0) != nil })
        #expect(Functions.names.count == 50)
        #expect(Functions.arity("idempotencyKey") == 0...0)
        #expect(Functions.arity("matches") == 2...2 && Functions.arity("jsonPath") == 2...2)
    }

    @Test func anErrorInsideAnArgumentPointsAtTheArgument() throws {
        let error = try evaluationError("format('{0}', length(1))", in: context)
        #expect(error?.offset == 14)
        #expect(error?.length == 9)
    }
}
