import FlowDSL
import Testing

@Suite struct ValueJSONTests {
    @Test(arguments: [
        ("null", Value.null),
        (" true ", .bool(true)),
        ("false", .bool(false)),
        ("0", .number(0)),
        ("-12.5e-1", .number(-1.25)),
        ("1E2", .number(100)),
        ("\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\"", .string("a\"b\\c/d\n\té😀")),
        ("[]", .array([])),
        ("[1, [2, []], {}]", .array([1, [2, []], [:]])),
        ("{\"a\": {\"b\": null}, \"a\": 2}", .object(["a": 2])),
        ("\"héllo\"", .string("héllo")),
    ])
    func parsesJSON(text: String, expected: Value) throws {
        #expect(try Value(jsonText: text) == expected)
    }

    @Test(arguments: [
        ("", "unexpected end of JSON", 0),
        ("[1,]", "unexpected character in JSON", 3),
        ("{\"a\" 1}", "expected ':' after a JSON object key", 5),
        ("{1: 2}", "expected a string key in JSON object", 1),
        ("[1 2]", "expected ',' or ']' in JSON array", 3),
        ("{\"a\": 1 \"b\": 2}", "expected ',' or '}' in JSON object", 8),
        ("01", "unexpected content after the JSON value", 1),
        ("1.", "expected a digit after '.'", 2),
        ("1e+", "expected a digit in the exponent", 3),
        ("-", "invalid JSON number", 1),
        ("tru", "invalid literal, expected 'true'", 3),
        ("\"abc", "unterminated JSON string", 4),
        ("\"a\nb\"", "control character in JSON string", 2),
        ("\"\\x\"", "invalid escape in JSON string", 2),
        ("\"\\u12\"", "expected four hex digits after '\\u'", 5),
        ("\"\\ud83d\"", "unpaired surrogate in JSON string", 7),
        ("\"\\ude00\"", "unpaired surrogate in JSON string", 7),
        ("NaN", "unexpected character in JSON", 0),
    ])
    func rejectsMalformedJSONWithAnOffset(text: String, message: String, offset: Int) {
        #expect(throws: JSONSyntaxError(message: message, offset: offset)) { try Value(jsonText: text) }
    }

    @Test func refusesHostileNesting() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONSyntaxError(message: "JSON nests deeper than 256 levels", offset: 256)) {
            try Value(jsonText: deep)
        }
        let allowed = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(try Value(jsonText: allowed).typeName == "array")
    }

    @Test func writesCompactSortedJSON() {
        let value: Value = ["z": [1.5, nil, false], "a": "x\u{1}\"\n", "m": [:]]
        #expect(value.jsonText == "{\"a\":\"x\\u0001\\\"\\n\",\"m\":{},\"z\":[1.5,null,false]}")
        #expect(Value.number(.infinity).jsonText == "null")
    }

    @Test(arguments: [
        Value.object(["k": [1, 2.25, -3e-7, "é😀\t", nil, true, ["nested": [:]]]]),
        .string("\u{0}\u{1f}\u{7f}\\/"),
        .number(123_456_789_012),
    ])
    func roundTrips(value: Value) throws {
        #expect(try Value(jsonText: value.jsonText) == value)
    }
}
