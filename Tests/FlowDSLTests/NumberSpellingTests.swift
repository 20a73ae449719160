import FlowDSL
import Testing

/// Numbers keep whether they were written as integers or floats (JSON text, YAML scalars,
/// expression literals), as Hurl's `isInteger`/`isFloat` read them, while equality, ordering and
/// arithmetic see the double alone and JSON output keeps a float's point.
@Suite struct NumberSpellingTests {
    @Test(arguments: [
        ("isInteger(1)", true), ("isFloat(1)", false), ("isFloat(1.0)", true), ("isInteger(1.0)", false),
        ("isFloat(1e3)", true), ("isFloat(1E3)", true), ("isInteger(1e3)", false), ("isFloat(-2.0)", true),
        ("isInteger(0x10)", true), ("isInteger(-7)", true),
        ("isFloat(fromJSON('{\"float\": 1.0}').float)", true),
        ("isInteger(fromJSON('{\"float\": 1.0}').float)", false),
        ("isInteger(fromJSON('{\"integer\": 1}').integer)", true),
        ("isFloat(fromJSON('1e3'))", true), ("isFloat(fromJSON('1000000000000000000000.0'))", true),
        ("isInteger(fromJSON('1000000000000000000000'))", true),
        ("isFloat(fromJSON('[2.0]')[0])", true),
    ])
    func predicatesReadTheSpelling(source: String, expected: Bool) throws {
        #expect(try evaluate(source) == .bool(expected), "\(source)")
    }

    @Test(arguments: [
        "1 == 1.0", "1.0 == 1", "fromJSON('1.0') == 1", "fromJSON('{\"a\": 1.0}') == fromJSON('{\"a\": 1}')",
        "fromJSON('[1.0, 2]') == fromJSON('[1, 2.0]')", "1.0 <= 1", "1.0 < 2", "2.0 > 1", "1e3 == 1000",
        "!(1.0 != 1)", "contains(fromJSON('[1.0]'), 1)",
    ])
    func equalityAndOrderingAreNumeric(source: String) throws {
        #expect(try evaluate(source) == .bool(true), "\(source)")
    }

    @Test func valuesAreEqualAndHashAlikeWhateverTheSpelling() {
        #expect(Value.number(1, float: true) == .number(1))
        #expect(Set<Value>([.number(1, float: true), .number(1)]).count == 1)
        #expect(Value.number(1, float: true) != .number(2, float: true))
    }

    @Test(arguments: [
        (
            "[1.0,1,1e3,0.5,-2.0,1000000000000000000000,1000000000000000000000.0]",
            "[1.0,1,1000.0,0.5,-2.0,1e+21,1e+21]"
        ),
        ("{\"float\":1.0,\"integer\":1}", "{\"float\":1.0,\"integer\":1}"),
    ])
    func jsonOutputKeepsAFloatsPoint(input: String, output: String) throws {
        #expect(try evaluate("toJSON(fromJSON('\(input)'))") == .string(output))
        var writer = JSONWriter(pretty: false)
        writer.value(try Value(jsonText: input))
        #expect(writer.text == output)
        // Read back, the floats are still floats.
        #expect(try Value(jsonText: output).jsonText == output)
    }

    @Test func interpolationIsUnchanged() throws {
        #expect(try evaluate("format('{0}', 1.0)") == .string("1"))
        #expect(Value.number(1, float: true).interpolated == "1")
    }

    @Test func yamlScalarsKeepTheirSpelling() throws {
        let source = """
            version: 1
            steps:
              post:
                http: { method: post, url: "http://127.0.0.1:9/x", json: { float: 1.0, exponent: 1e3, integer: 1, half: 0.5 } }
            """
        let result = WorkflowLoader.check(source: source, file: "w.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
        let workflow = try #require(result.workflow)
        guard case .http(let post)? = workflow.step("post")?.kind, case .json(.object(let members))? = post.body
        else {
            Issue.record("post has no json object body")
            return
        }
        #expect(
            members.map(\.value) == [
                .number(1, float: true), .number(1000, float: true), .number(1, float: false),
                .number(0.5, float: true),
            ])
    }
}
