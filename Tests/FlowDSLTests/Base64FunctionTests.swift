import FlowDSL
import Testing

@Suite struct Base64FunctionTests {
    let context = ExpressionTestContext(roots: ["inputs": ["user": "ci", "text": "héllo wörld"]])

    @Test(arguments: [
        ("base64Encode('')", Value.string("")),
        ("base64Encode('f')", .string("Zg==")),
        ("base64Encode('fo')", .string("Zm8=")),
        ("base64Encode('foo')", .string("Zm9v")),
        ("base64Encode(format('{0}:{1}', inputs.user, 'pw'))", .string("Y2k6cHc=")),
        ("base64Encode('é')", .string("w6k=")),
        ("base64Decode('Zm9vYmFy')", .string("foobar")),
        ("base64Decode('Zm8')", .string("fo")),
        ("base64Decode('Zm9v YmE=')", .string("fooba")),
        ("base64Decode('Pz8-') == base64Decode('Pz8+')", .bool(true)),
        ("base64Decode(base64Encode(inputs.text)) == inputs.text", .bool(true)),
    ])
    func encodesAndDecodes(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        ("base64Encode(1)", "base64Encode() expects a string, got number"),
        ("base64Decode(null)", "base64Decode() expects a string, got null"),
        (
            "base64Decode('Zm9v!')",
            "base64Decode() got invalid base64: a character outside the base64 alphabet at offset 4"
        ),
        ("base64Decode('Zg==Zg')", "base64Decode() got invalid base64: text after '=' padding at offset 4"),
        (
            "base64Decode('Z')",
            "base64Decode() got invalid base64: its length is not that of base64 text (1 characters)"
        ),
        ("base64Decode('/w==')", "base64Decode() decoded 1 bytes that are not UTF-8 text"),
    ])
    func rejectsWhatIsNotBase64Text(source: String, message: String) throws {
        let error = try evaluationError("  " + source, in: context)
        #expect(error == EvaluationError(message: message, offset: 2, length: source.count))
    }

    @Test func arityIsRegisteredForTheChecker() {
        #expect(Functions.arity("base64Encode") == 1...1)
        #expect(Functions.arity("base64Decode") == 1...1)
        #expect(Functions.arity("base64encode") == nil)
    }
}
