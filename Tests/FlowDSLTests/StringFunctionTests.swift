import FlowDSL
import Testing

/// The functions that clean server-supplied text: results, type errors while running, and the
/// same errors found by the checker before anything runs when the arguments are literals.
@Suite struct StringFunctionTests {
    let context = ExpressionTestContext(
        roots: ["inputs": ["name": "../../x", "id": 42, "list": ["a", "b"], "padded": "\t v1 \n"]])

    @Test(arguments: [
        ("basename('a/b/c.txt')", Value.string("c.txt")),
        ("basename('a/b/')", .string("b")),
        ("basename('c.txt')", .string("c.txt")),
        ("basename('/')", .string("")),
        ("basename('')", .string("")),
        ("basename(inputs.name)", .string("x")),
        ("basename('/etc/passwd')", .string("passwd")),
        ("basename('..')", .string("..")),
        ("dirname('a/b/c.txt')", .string("a/b")),
        ("dirname('c.txt')", .string(".")),
        ("dirname('/c.txt')", .string("/")),
        ("dirname('a/b/')", .string("a")),
        ("dirname('a//b')", .string("a")),
        ("dirname('/')", .string("/")),
        ("replace('a-b-c', '-', '')", .string("abc")),
        ("replace(inputs.name, '../', '')", .string("x")),
        ("replace('aaa', 'aa', 'b')", .string("ba")),
        ("split('a,,b', ',')", .array(["a", "", "b"])),
        ("split('', ',')", .array([""])),
        ("split('héé', '')", .array(["h", "é", "é"])),
        ("split('a::b', '::')", .array(["a", "b"])),
        ("join(split('x/y/z', '/'), '/')", .string("x/y/z")),
        ("lower('AbC')", .string("abc")),
        ("upper('straße')", .string("STRASSE")),
        ("trim(inputs.padded)", .string("v1")),
        ("trim('   ')", .string("")),
        ("substring('report.pdf', 0, 6)", .string("report")),
        ("substring('report.pdf', 7)", .string("pdf")),
        ("substring('report.pdf', -3)", .string("pdf")),
        ("substring('report.pdf', -30, 2)", .string("re")),
        ("substring('abc', 5)", .string("")),
        ("substring('abc', 1, 0)", .string("")),
        ("substring('👋🏽éx', 1, 1)", .string("é")),
        ("urlEncode('a b/c&d=é~')", .string("a%20b%2Fc%26d%3D%C3%A9~")),
        ("urlEncode(inputs.id)", .string("42")),
        ("toString(inputs.id)", .string("42")),
        ("toString(null)", .string("")),
        ("toString(inputs.list)", .string("[\"a\",\"b\"]")),
        ("toNumber('42')", .number(42)),
        ("toNumber(' -1.5e1 ')", .number(-15)),
        ("toNumber(inputs.id)", .number(42)),
        ("toNumber(true)", .number(1)),
    ])
    func computesResults(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        ("basename(1)", "basename() expects a string, got number"),
        ("dirname(null)", "dirname() expects a string, got null"),
        ("replace('a', 1, 'b')", "replace() expects a string as argument 2, got number"),
        ("replace('a', '', 'b')", "replace() cannot replace the empty string"),
        ("split(inputs.list, ',')", "split() expects a string as argument 1, got array"),
        ("lower(inputs.id)", "lower() expects a string, got number"),
        ("substring('abc', '1')", "substring() expects a number as argument 2, got string"),
        ("substring('abc', 1.5)", "substring() expects a whole number as argument 2, got 1.5"),
        (
            "substring('abc', 0, -1)",
            "substring() expects a whole number of characters, 0 or more, as argument 3, got -1"
        ),
        ("urlEncode(inputs.list)", "urlEncode() expects a string, number or boolean, got array"),
        ("toNumber('abc')", "toNumber() cannot read 'abc' as a decimal number"),
        ("toNumber('')", "toNumber() cannot read '' as a decimal number"),
        ("toNumber('0x10')", "toNumber() cannot read '0x10' as a decimal number"),
        ("toNumber('inf')", "toNumber() cannot read 'inf' as a decimal number"),
        ("toNumber(null)", "toNumber() expects a string, number or boolean, got null"),
    ])
    func rejectsWrongArgumentsAtTheCall(source: String, message: String) throws {
        let error = try evaluationError("  " + source, in: context)
        #expect(error == EvaluationError(message: message, offset: 2, length: source.count))
    }

    /// The same list serves the checker and the evaluator: every new name is known to both.
    @Test func everyFunctionIsKnownToTheCheckerWithItsArity() {
        #expect(Functions.arity("replace") == 3...3)
        #expect(Functions.arity("substring") == 2...3)
        #expect(Functions.arity("split") == 2...2)
        for name in ["basename", "dirname", "lower", "upper", "trim", "urlEncode", "toString", "toNumber"] {
            #expect(Functions.names.contains(name) && Functions.arity(name) == 1...1, "\(name)")
        }
    }

    private func checkErrors(_ expression: String) -> [String] {
        let source = "version: 1\nsteps:\n  a: { run: \"echo ${{ \(expression) }}\" }\n"
        let result = WorkflowLoader.check(source: source, file: "s.yaml")
        return result.diagnostics.filter { $0.severity == .error }.map { "\($0.location?.column ?? 0): \($0.message)" }
    }

    @Test func validateFindsMisspellingsArityAndLiteralTypes() {
        #expect(checkErrors("basenme('a/b')").first?.hasSuffix("unknown function 'basenme'") == true)
        let misspelt = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a: { run: \"echo ${{ urlencode('a') }}\" }\n", file: "s.yaml")
        #expect(misspelt.diagnostics.first?.hint == "did you mean 'urlEncode'?")
        #expect(checkErrors("replace('a', 'b')") == ["23: 'replace' takes 3 arguments, not 2"])
        #expect(checkErrors("lower(1)") == ["23: lower() expects a string, got number"])
        #expect(
            checkErrors("substring(inputs.x, '1')").contains(
                "23: substring() expects a number as argument 2, got string"))
        #expect(checkErrors("replace('a', '', 'b')") == ["23: replace() cannot replace the empty string"])
        #expect(checkErrors("toNumber('abc')") == ["23: toNumber() cannot read 'abc' as a decimal number"])
        // Computed arguments are checked when the call runs, not before.
        #expect(checkErrors("lower(env.HOME)") == [])
        #expect(checkErrors("substring(env.X, 1, 2)") == [])
    }
}
