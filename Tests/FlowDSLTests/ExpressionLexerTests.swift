import FlowDSL
import Testing

@Suite struct ExpressionLexerTests {
    @Test(arguments: [
        ("'text'", Value.string("text")),
        ("\"text\"", .string("text")),
        ("'it''s'", .string("it's")),
        ("\"say \"\"hi\"\"\"", .string("say \"hi\"")),
        ("''", .string("")),
        ("'a\\nb'", .string("a\\nb")),
        ("'}} ${{ '", .string("}} ${{ ")),
        ("'héllo 👋🏽'", .string("héllo 👋🏽")),
        ("1", .number(1)),
        ("-2.5", .number(-2.5)),
        ("1e3", .number(1000)),
        ("2.5E-1", .number(0.25)),
        ("1e+2", .number(100)),
        ("0xff", .number(255)),
        ("0XFF", .number(255)),
        ("-0x10", .number(-16)),
        ("007", .number(7)),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        ("  \t 42 \n ", .number(42)),
    ])
    func readsLiterals(source: String, expected: Value) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test(arguments: [
        ("'abc", 0, 4, "unterminated string"),
        ("'it''s", 0, 6, "unterminated string"),
        ("1 == \"x", 5, 2, "unterminated string"),
        ("a # b", 2, 1, "unknown character '#'"),
        ("a + b", 2, 1, "unknown character '+'"),
        ("a = b", 2, 1, "unknown operator '=', did you mean '=='?"),
        ("a & b", 2, 1, "unknown operator '&', did you mean '&&'?"),
        ("a | b", 2, 1, "unknown operator '|', did you mean '||'?"),
        ("1abc", 0, 4, "invalid number '1abc'"),
        ("0x", 0, 2, "invalid number '0x'"),
        ("0xfffffffffffffffff", 0, 19, "invalid number '0xfffffffffffffffff'"),
        ("1e", 0, 2, "invalid number '1e'"),
        ("1e999", 0, 5, "invalid number '1e999'"),
        ("- 1", 0, 1, "unexpected '-': only number literals can be negative, there is no subtraction"),
        ("a\u{1}", 1, 1, "unknown character U+0001"),
    ])
    func reportsLexicalErrorsWhereTheyAre(source: String, offset: Int, length: Int, message: String) {
        let error = syntaxError(source)
        #expect(error == ExpressionSyntaxError(offset: offset, length: length, message: message))
    }

    @Test func offsetsCountCharactersNotBytesOrScalars() {
        // "é" is two scalars when decomposed and "👋🏽" two scalars and eight UTF-8 bytes; each is one column.
        #expect(syntaxError("'e\u{301}👋🏽' # x")?.offset == 5)
    }

    @Test func crlfAndUnicodeWhitespaceSeparateTokens() throws {
        #expect(try evaluate("1\r\n==\r\n1") == true)
        #expect(try evaluate("1\u{A0}==\u{2003}1") == true)
        #expect(syntaxError("a\r\n#") == ExpressionSyntaxError(offset: 2, length: 1, message: "unknown character '#'"))
        #expect(syntaxError("a § b") == ExpressionSyntaxError(offset: 2, length: 1, message: "unknown character '§'"))
    }

    @Test func stringsKeepEveryCharacterExactly() throws {
        #expect(try evaluate("'a\r\nb'") == "a\r\nb")
        #expect(try evaluate("'é''x👋🏽'") == "é'x👋🏽")
        #expect(try evaluate("\"''\"") == "''")
    }

    @Test func namesMayContainDashesAndUnderscores() throws {
        let expression = try Expression.parse("steps.fetch-users.outputs.first_name")
        #expect(
            expression.references.map(\.path) == [[.key("fetch-users"), .key("outputs"), .key("first_name")]])
    }

    @Test func keywordsAreOrdinaryKeysAfterADot() throws {
        let context = ExpressionTestContext(roots: ["flags": ["true": 1, "null": 2, "false": 3]])
        let source = "format('{0}{1}{2}', flags.true, flags.null, flags.false)"
        #expect(try evaluate(source, in: context) == "123")
        #expect(try Expression.parse("flags.null").references.first?.path == [.key("null")])
    }

    @Test func keywordsArePrefixesOfLongerNames() throws {
        let context = ExpressionTestContext(roots: ["trueish": "yes", "nullable": 1])
        #expect(try evaluate("trueish", in: context) == "yes")
        #expect(try evaluate("nullable", in: context) == 1)
    }
}
