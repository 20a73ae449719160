import FlowDSL
import Testing

@Suite struct ValueTests {
    @Test(arguments: [
        (Value.null, ""),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.number(3), "3"),
        (.number(3.0), "3"),
        (.number(-0.0), "0"),
        (.number(2.5), "2.5"),
        (.number(-1e3), "-1000"),
        (.number(0.1), "0.1"),
        (.number(9_007_199_254_740_992), "9007199254740992"),
        (.number(1e300), "1e+300"),
        (.number(.infinity), "Infinity"),
        (.number(.nan), "NaN"),
        (.string("plain"), "plain"),
        (.array([1, "a", nil]), "[1,\"a\",null]"),
        (.object(["b": 1, "a": ["z": true, "y": []]]), "{\"a\":{\"y\":[],\"z\":true},\"b\":1}"),
    ])
    func interpolatesAsUsersRead(value: Value, expected: String) {
        #expect(value.interpolated == expected)
    }

    @Test(arguments: [
        (Value.null, false), (.bool(false), false), (.bool(true), true), (.number(0), false),
        (.number(.nan), false), (.number(-2), true), (.string(""), false), (.string("false"), true),
        (.array([]), true), (.object([:]), true),
    ])
    func hasDocumentedTruthiness(value: Value, expected: Bool) {
        #expect(value.isTruthy == expected)
    }

    @Test func namesItsType() {
        let values: [Value] = [nil, true, 1, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
    }

    @Test func literalsBuildValues() {
        let value: Value = ["a": [1, 2.5, "x", true, nil]]
        #expect(value == .object(["a": .array([.number(1), .number(2.5), .string("x"), .bool(true), .null])]))
    }
}
