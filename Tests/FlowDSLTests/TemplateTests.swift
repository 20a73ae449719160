import FlowDSL
import Testing

@Suite struct TemplateTests {
    let context = ExpressionTestContext(
        roots: [
            "inputs": ["n": 3, "name": "demo", "flag": true, "obj": ["b": 1, "a": "x"]],
            "secrets": ["TOKEN": "s3cr3t"],
        ])

    func render(_ text: String) throws -> Value {
        try Template.parse(text).evaluate(context)
    }

    @Test(arguments: [
        ("a ${{ 1 }} b", Value.string("a 1 b")),
        ("${{ inputs.name }}-${{ inputs.n }}", .string("demo-3")),
        ("n=${{ inputs.n }}", .string("n=3")),
        ("${{inputs.name}}!", .string("demo!")),
        ("${{ inputs.missing }}|", .string("|")),
        ("obj: ${{ inputs.obj }}", .string("obj: {\"a\":\"x\",\"b\":1}")),
        ("${{ '}}' }}", .string("}}")),
        ("${{ \"}}\" }} and ${{ 'it''s }}' }}", .string("}} and it's }}")),
        ("${{ '${{' }} is literal", .string("${{ is literal")),
        ("$ { { not an expression } }", .string("$ { { not an expression } }")),
        ("${ inputs.n }", .string("${ inputs.n }")),
        ("$${{ 1 }}", .string("$1")),
        ("${{ 1 }}${{ 2 }}", .string("12")),
        ("café ${{ 'ok' }} 👋🏽", .string("café ok 👋🏽")),
        ("a\r\n${{ 'b\r\nc' }}\r\n", .string("a\r\nb\r\nc\r\n")),
        ("", .string("")),
    ])
    func interpolatesIntoText(text: String, expected: Value) throws {
        #expect(try render(text) == expected)
    }

    @Test(arguments: [
        ("${{ inputs.n }}", Value.number(3)),
        ("  ${{ inputs.flag }}\n", .bool(true)),
        ("${{ inputs.obj }}", .object(["a": "x", "b": 1])),
        ("${{ inputs.missing }}", .null),
        ("${{ fromJSON('[1,2]') }}", .array([1, 2])),
    ])
    func aSingleExpressionKeepsItsType(text: String, expected: Value) throws {
        let template = try Template.parse(text)
        #expect(template.isSingleExpression)
        #expect(!template.isLiteral)
        #expect(try template.evaluate(context) == expected)
    }

    @Test func classifiesTemplates() throws {
        let literal = try Template.parse("just text")
        #expect(literal.isLiteral && !literal.isSingleExpression)
        #expect(try literal.evaluate(context) == "just text")
        let mixed = try Template.parse("x ${{ 1 }}")
        #expect(!mixed.isLiteral && !mixed.isSingleExpression)
        let two = try Template.parse("${{ 1 }} ${{ 2 }}")
        #expect(!two.isSingleExpression)
        #expect(try two.evaluate(context) == "1 2")
    }

    @Test func locatesEmbeddedExpressions() throws {
        let template = try Template.parse("Bearer ${{ steps.login.outputs.token }} / ${{inputs.n}}")
        #expect(template.expressions.map(\.offset) == [10, 45])
        #expect(template.expressions.map(\.openingOffset) == [7, 42])
        #expect(template.expressions.map(\.length) == [32, 13])
        #expect(template.expressions.map(\.expression.source) == [" steps.login.outputs.token ", "inputs.n"])
        let reference = try #require(template.expressions.first?.expression.references.first)
        // The checker adds the embedded offset to the reference's own: column of `steps` in the template.
        #expect(template.expressions[0].offset + reference.offset == 11)
        #expect(reference.length == 25)
    }

    @Test func offsetsCountCharactersAfterNonASCIIText() throws {
        let template = try Template.parse("👋🏽 é\r\n${{ steps.a.outputs.b }}")
        let embedded = try #require(template.expressions.first)
        #expect(embedded.openingOffset == 4)
        #expect(embedded.offset == 7)
        #expect(embedded.expression.references.map(\.offset) == [1])
    }

    @Test(arguments: [
        ("a ${{ }} b", 2, 6, "empty expression: '${{ }}' contains nothing"),
        ("${{}}", 0, 5, "empty expression: '${{ }}' contains nothing"),
        ("ok ${{ 1 ", 3, 3, "unterminated '${{': expected '}}' to close it"),
        ("ok ${{ 1 } }", 3, 3, "unterminated '${{': expected '}}' to close it"),
        (
            "${{ 1 }} then ${{ 'a }}", 14, 3,
            "unterminated '${{': expected '}}' to close it (a string inside it is not closed)"
        ),
        ("x ${{ 1 # 2 }}", 8, 1, "unknown character '#'"),
        ("x ${{ f(1 }}", 10, 1, "expected ')' to close '(' at 7, found the end of the expression"),
        ("é👋🏽 ${{ a b }}", 9, 1, "unexpected 'b' after the end of the expression"),
        ("${{ ${{ 1 }} }}", 4, 1, "unknown character '$'"),
        ("é\r\n${{ 1 # }}", 8, 1, "unknown character '#'"),
        ("é\r\n${{ f(1 }}", 10, 1, "expected ')' to close '(' at 7, found the end of the expression"),
    ])
    func reportsSyntaxErrorsAtTheirColumnInTheTemplate(text: String, offset: Int, length: Int, message: String) {
        #expect(throws: ExpressionSyntaxError(offset: offset, length: length, message: message)) {
            try Template.parse(text)
        }
    }

    @Test func locatesEvaluationErrorsInTheTemplate() {
        #expect(
            throws: EvaluationError(
                message: "length() expects a string, array or object, got number", offset: 12, length: 16)
        ) {
            try Template.parse("count is ${{length(inputs.n)}}").evaluate(context)
        }
        #expect(throws: EvaluationError(message: "'nope' is not available here", offset: 4, length: 4)) {
            try Template.parse("${{ nope }}").evaluate(context)
        }
    }

    @Test func rendersPlaceholdersForADryRun() throws {
        let template = try Template.parse(
            "${{ inputs.name }}/${{ steps.login.outputs.token }}/${{ secrets.TOKEN }}/${{ format('{0}-{1}', 'a', 2) }}"
                + "/${{ length(steps.x.outputs.list) }}/${{ inputs['name'] }}/${{ always() }}")
        let rendered = template.render { reference in
            switch reference.root {
            case "inputs": "demo"
            case "secrets": "***"
            default: nil
            }
        }
        #expect(
            rendered
                == "demo/<steps.login.outputs.token>/***/a-2/<length(steps.x.outputs.list)>/demo/<always()>")
    }

    @Test func rendersALiteralAsItself() throws {
        #expect(try Template.parse("plain $ { text").render { _ in "x" } == "plain $ { text")
    }

    @Test func templatesAreEqualWhenTheirTextIs() throws {
        #expect(try Template.parse("a ${{ 1 }}") == Template.parse("a ${{ 1 }}"))
        #expect(try Template.parse("a ${{ 1 }}") != Template.parse("a ${{ 2 }}"))
    }
}

@Suite struct TemplateRenderTests {
    let known = ExpressionTestContext(
        roots: ["inputs": ["base": "http://h", "version": 2], "secrets": ["TOKEN": "s3cr3t"]],
        status: ["success": true])

    func placeholder(_ reference: Reference) -> String? {
        switch reference.root {
        case "secrets": "***"
        case "inputs": reference.description == "inputs.base" ? "http://h" : nil
        default: nil
        }
    }

    @Test func evaluatesCompoundExpressionsOverWhatIsKnown() throws {
        let template = try Template.parse(
            "${{ inputs.base }}/${{ format('v{0}', inputs.version) }}/${{ steps.a.outputs.id || 'x' }}")
        #expect(template.render(known: known, placeholder: placeholder) == "http://h/v2/<steps.a.outputs.id || 'x'>")
        // Without a context, only constants are evaluated.
        #expect(
            template.render(placeholder: placeholder)
                == "http://h/<format('v{0}', inputs.version)>/<steps.a.outputs.id || 'x'>")
    }

    @Test func neverEvaluatesSecretsOrStatusFunctions() throws {
        let template = try Template.parse(
            "${{ format('Bearer {0}', secrets.TOKEN) }} ${{ success() }} ${{ secrets.TOKEN }}")
        let rendered = template.render(known: known, placeholder: placeholder)
        #expect(rendered == "<format('Bearer {0}', secrets.TOKEN)> <success()> ***")
        #expect(!rendered.contains("s3cr3t"))
    }
}
