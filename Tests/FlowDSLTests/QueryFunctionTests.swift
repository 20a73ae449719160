import FlowDSL
import Testing

/// `xpath`, `htmlXPath`, `sha256`/`sha1`/`md5`, `capture`/`captureAll`, the type predicates,
/// `toDate`/`formatDate`/`daysBeforeNow`/`daysAfterNow` and `exists`: what they answer, how they
/// fail, and what `flow validate` finds in their literal arguments.
@Suite struct QueryFunctionTests {
    static let books = """
        <?xml version="1.0"?>
        <book xmlns='urn:loc.gov:books' xmlns:isbn='urn:ISBN:0-395-36341-6'>
            <title>Cheaper by the Dozen</title>
            <isbn:number>1568491379</isbn:number>
            <notes><p xmlns='http://www.w3.org/1999/xhtml'>This is a <i>funny</i> book!</p></notes>
        </book>
        """
    static let page = """
        <!DOCTYPE html><html><head><meta charset="iso-8859-1"><title>Café</title></head>
        <body><ul><li class="a">one<li class="b">two<li>three</ul><a href="/next">next</a><br></body></html>
        """

    let context = ExpressionTestContext(
        roots: [
            "inputs": [
                "xml": .string(Self.books), "html": .string(Self.page), "data": .string("<data>café</data>"),
                "doc": ["present": nil, "list": [1, nil], "nested": ["x": 1]],
                "ns": ["b": "urn:loc.gov:books"],
            ],
            "result": ["headers": ["content-type": "text/xml"], "header_values": ["set-cookie": ["a=1", "b=2"]]],
        ])

    @Test(arguments: [
        ("xpath(inputs.data, 'normalize-space(//data)')", Value.string("café")),
        ("xpath(inputs.data, '//toto')", .array([])),
        ("xpath(inputs.data, 'count(//data)')", .number(1)),
        ("xpath(inputs.data, 'boolean(//data)')", .bool(true)),
        ("xpath(inputs.xml, 'string(//_:book/_:title)')", .string("Cheaper by the Dozen")),
        ("xpath(inputs.xml, 'string(//_:book/isbn:number)')", .string("1568491379")),
        ("xpath(inputs.xml, 'string(//b:title)', inputs.ns)", .string("Cheaper by the Dozen")),
        ("length(xpath(inputs.xml, \"//*[local-name()='book']/*[local-name()='notes']\"))", .number(1)),
        ("xpath(inputs.xml, 'normalize-space(//_:notes)')", .string("This is a funny book!")),
        ("htmlXPath(inputs.html, 'string(//title)')", .string("Café")),
        ("htmlXPath(inputs.html, '//li')", .array(["one", "two", "three"])),
        ("htmlXPath(inputs.html, '//li/@class')", .array(["a", "b"])),
        ("htmlXPath(inputs.html, 'string(//a/@href)')", .string("/next")),
    ])
    func xpathAnswersStringsNumbersBooleansAndNodeLists(source: String, expected: Value) throws {
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test(arguments: [
        ("xpath('<a><b></a>', '//a')", "xpath('//a'): the document is not well-formed XML: line 1: "),
        ("xpath('', '//a')", "xpath('//a'): the document is empty, not XML"),
        ("htmlXPath('', '//a')", "htmlXPath('//a'): the document is empty, not HTML"),
        ("xpath('<p>a<br></p>', '//p')", "xpath('//p'): the document is not well-formed XML: line 1: "),
        ("xpath(inputs.data, '//a[')", "xpath('//a['): the XPath failed: "),
        ("xpath(inputs.data, '//x:a')", "xpath('//x:a'): the XPath failed: Undefined namespace prefix"),
        ("xpath(inputs.data, '//a', 'x')", "xpath() expects an object as argument 3, got string"),
    ])
    func xpathFailuresSayWhatFailed(source: String, prefix: String) throws {
        let error = try evaluationError(source, in: context)
        #expect(error?.message.hasPrefix(prefix) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("sha256('')", Value.string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")),
        ("sha256('Hello World!')", .string("7f83b1657ff1fc53b92dc18148a1d65dfc2d4b1fa3d677284addd200126d9069")),
        ("sha256('Hello World!', 'base64')", .string("f4OxZX/x/FO5LcGBSKHWXfwtSx+j1ncoSt3SABJtkGk=")),
        (
            "sha256('SGVsbG8gV29ybGQh', 'hex', 'base64')",
            .string("7f83b1657ff1fc53b92dc18148a1d65dfc2d4b1fa3d677284addd200126d9069")
        ),
        ("sha1('abc')", .string("a9993e364706816aba3e25717850c26c9cd0d89d")),
        ("md5('Hello World!')", .string("ed076287532e86365e841e92bfc50d8c")),
        ("md5('', 'base64')", .string("1B2M2Y8AsgTpgAmY7PhCfg==")),
        ("md5(42)", .string("a1d0c6e83f027327d8461063f4ac58a6")),
    ])
    func hashesInHexOrBase64(source: String, expected: Value) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test(arguments: [
        ("sha256('x', 'hex64')", "sha256() encodes its digest as 'hex' or 'base64', not 'hex64'"),
        ("md5('x', 'hex', 'utf16')", "md5() reads its data as 'text' or 'base64', not 'utf16'"),
        ("sha1('%%', 'hex', 'base64')", "sha1() got invalid base64 as argument 1"),
        ("sha256(fromJSON('[1]'))", "sha256() expects a string, number or boolean as argument 1, got array"),
    ])
    func hashFailures(source: String, prefix: String) throws {
        let error = try evaluationError(source)
        #expect(error?.message.hasPrefix(prefix) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("capture('Hello World!', 'Hello ([a-zA-Z]+)!')", Value.string("World")),
        ("capture('Hello World!', 'Hello ([0-9]+)!')", .null),
        ("capture('Hello World!', 'Hello ([a-zA-Z]+)!', 0)", .string("Hello World!")),
        ("capture('v1.22', '(?<major>[0-9]+)[.](?<minor>[0-9]+)', 'minor')", .string("22")),
        ("capture('ab', 'a(x)?b')", .null),
        ("capture(12345, '2(3)4')", .string("3")),
        ("captureAll('a=1, b=22, c=333', '([a-z])=([0-9]+)', 2)", .array(["1", "22", "333"])),
        ("captureAll('none', '([0-9])')", .array([])),
    ])
    func captureGivesAGroupsText(source: String, expected: Value) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test(arguments: [
        ("capture('x', '(x')", "capture() got an invalid regular expression '(x'"),
        ("capture('x', '(x)', 2)", "capture(): the regular expression has 1 group(s), not 2"),
        ("capture('x', '(x)', 'name')", "capture(): the regular expression has no group named 'name'"),
        ("captureAll('x', '(x)', -1)", "captureAll() expects a group number, 0 or more, or a group name"),
    ])
    func captureFailures(source: String, prefix: String) throws {
        let error = try evaluationError(source)
        #expect(error?.message.hasPrefix(prefix) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("isInteger(1)", true), ("isInteger(1.5)", false), ("isInteger('1')", false),
        ("isInteger(fromJSON('1000000000000000000000'))", true),
        ("isFloat(1.5)", true), ("isFloat(fromJSON('{\"d\": 0.1}').d)", true), ("isFloat(2)", false),
        ("isFloat('1.5')", false), ("isNumber(0)", true), ("isNumber('0')", false),
        ("isString('')", true), ("isString(1)", false), ("isBoolean(false)", true), ("isBoolean('true')", false),
        ("isCollection(fromJSON('[]'))", true), ("isCollection(fromJSON('{}'))", true),
        ("isCollection('[]')", false), ("isCollection(null)", false),
        ("isIsoDate('2022-10-31T09:00:00.594Z')", true), ("isIsoDate('2024-03-20T11:23:56.773+02:00')", true),
        ("isIsoDate('2024-03-20')", false), ("isIsoDate('2024-02-30T00:00:00Z')", false),
        ("isIsoDate('Wed, 21 Oct 2015 07:28:00 GMT')", false), ("isIsoDate(1)", false),
    ])
    func typePredicates(source: String, expected: Bool) throws {
        #expect(try evaluate(source) == .bool(expected))
    }

    @Test(arguments: [
        ("toDate('Wed, 21 Oct 2015 07:28:00 GMT')", Value.string("2015-10-21T07:28:00Z")),
        ("toDate('Sunday, 06-Nov-94 08:49:37 GMT')", .string("1994-11-06T08:49:37Z")),
        ("toDate('Sun Nov  6 08:49:37 1994')", .string("1994-11-06T08:49:37Z")),
        ("toDate('2024-03-20T11:23:56.773+02:00')", .string("2024-03-20T09:23:56.773Z")),
        ("toDate('2024-02-29')", .string("2024-02-29T00:00:00Z")),
        ("toDate('1969-12-31T23:59:59.5Z')", .string("1969-12-31T23:59:59.5Z")),
        ("toDate('Wed, 21 Oct 2015 07:28:00 GMT', '%a, %d %b %Y %H:%M:%S GMT')", .string("2015-10-21T07:28:00Z")),
        ("toDate('21/10/2015 7:28 PM +0130', '%d/%m/%Y %I:%M %p %z')", .string("2015-10-21T17:58:00Z")),
        ("toDate('1445412480', '%s')", .string("2015-10-21T07:28:00Z")),
        ("formatDate('Wed, 21 Oct 2015 07:28:00 GMT', '%Y')", .string("2015")),
        ("formatDate('2015-10-21T07:28:00Z', '%a, %d %b %Y %H:%M:%S')", .string("Wed, 21 Oct 2015 07:28:00")),
        (
            "formatDate('2000-02-29T13:05:09.25Z', '%A %B %e %j %I%p %T %F %s %%')",
            .string("Tuesday February 29 060 01PM 13:05:09 2000-02-29 951829509 %")
        ),
        ("formatDate(toDate('06/11/94', '%d/%m/%y'), '%D')", .string("11/06/94")),
    ])
    func datesAreISOStringsInUTC(source: String, expected: Value) throws {
        #expect(try evaluate(source) == expected)
    }

    @Test(arguments: [
        ("toDate('yesterday')", "toDate() cannot read 'yesterday' as a date"),
        ("toDate('2015-13-01', '%Y-%m-%d')", "toDate(): '2015-13-01' does not match '%Y-%m-%d': there is no such date"),
        ("toDate('2015', '%Q')", "toDate(): the format '%Q' has an unknown directive '%Q'"),
        (
            "toDate('Wed, 21 Oct 2015 07:28:00 CET', '%a, %d %b %Y %H:%M:%S %Z')",
            "toDate(): 'Wed, 21 Oct 2015 07:28:00 CET' does not match '%a, %d %b %Y %H:%M:%S %Z': the time zone 'CET'"
        ),
        ("toDate('2015-10-21 extra', '%Y-%m-%d')", "toDate(): '2015-10-21 extra' does not match '%Y-%m-%d': "),
        ("formatDate('now', '%Y')", "formatDate() cannot read 'now' as a date"),
        ("daysBeforeNow('2015-10-21T07:28:00Z')", "daysBeforeNow() is only available while a workflow runs"),
    ])
    func dateFailures(source: String, prefix: String) throws {
        let error = try evaluationError(source)
        #expect(error?.message.hasPrefix(prefix) == true, "\(String(describing: error))")
    }

    @Test func daysCountWholeDaysFromTheContextsClock() throws {
        struct Clock: EvaluationContext {
            func value(ofRoot name: String) -> Value? { nil }
            func statusFunction(_ function: StatusFunction) -> Bool? { nil }
            // 2026-01-01T12:00:00Z
            func currentTime() -> Double? { 1_767_268_800 }
        }
        func days(_ source: String) throws -> Value { try Expression.parse(source).evaluate(Clock()) }
        #expect(try days("daysBeforeNow('2025-12-30T12:00:01Z')") == .number(1))
        #expect(try days("daysBeforeNow('Wed, 21 Oct 2015 07:28:00 GMT')") == .number(3725))
        #expect(try days("daysAfterNow('2026-01-11T12:00:00Z')") == .number(10))
        #expect(try days("daysAfterNow('2025-12-31T00:00:00Z')") == .number(-1))
    }

    @Test(arguments: [
        ("exists(inputs.doc.present)", true), ("inputs.doc.present == null", true),
        ("exists(inputs.doc.absent)", false), ("exists(inputs.doc.list[1])", true),
        ("exists(inputs.doc.list[2])", false), ("exists(inputs.doc['nested'].x)", true),
        ("exists(inputs.doc.nested.y)", false), ("exists(inputs.doc.present.deeper)", false),
        ("exists(result.headers.Content-Type)", true), ("exists(result.headers['CONTENT-TYPE'])", true),
        ("exists(result.header_values.Set-Cookie[1])", true), ("exists(result.header_values.Set-Cookie)", true),
        ("exists(result.header_values.ETag)", false),
        ("exists(null)", false), ("exists(1)", true), ("exists(capture('a', '(b)'))", false),
    ])
    func existsTellsANullFromAMissingKey(source: String, expected: Bool) throws {
        #expect(try evaluate(source, in: context) == .bool(expected))
    }

    @Test func validateChecksTheNewFunctionsArguments() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                steps:
                  fetch:
                    http: { url: http://127.0.0.1:9/ }
                    expect:
                      assert:
                        - capture(result.body, '(x') == 'x'
                        - xpath(result.body, '//a[') == 'x'
                        - htmlXPath(result.body) == 'x'
                        - sha256(result.body, 'hex32') == 'x'
                        - toDate(result.headers.date, '%Y-%Q') == 'x'
                        - formatDate('2015-10-21', '%Y') == '2015'
                        - formatDate('soon', '%Y') == '2015'
                        - exists(result.body, 1)
                        - xpath(result.body, 'string(//title)') == '' && capture(result.body, 'a(b)', 1) == 'b'
                """, file: "q.yaml")
        let found = result.diagnostics.filter { $0.severity == .error }.map {
            "\($0.location?.line ?? 0):\($0.location?.column ?? 0): \($0.message)"
        }
        #expect(found.count == 7, "\(found)")
        #expect(found.contains { $0.hasPrefix("7:11: capture(): invalid regular expression '(x'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("8:11: xpath(): invalid XPath '//a[': ") }, "\(found)")
        #expect(found.contains("9:11: 'htmlXPath' takes 2 arguments, not 1"), "\(found)")
        #expect(found.contains { $0.hasPrefix("10:11: sha256() encodes its digest as 'hex' or 'base64'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("11:11: toDate(): the format '%Y-%Q' has an unknown directive") })
        #expect(found.contains { $0.hasPrefix("13:11: formatDate() cannot read 'soon' as a date") }, "\(found)")
        #expect(found.contains("14:11: 'exists' takes 1 argument, not 2"), "\(found)")
    }

    @Test func theNewFunctionsAreKnown() {
        for name in [
            "xpath", "htmlXPath", "sha256", "sha1", "md5", "capture", "captureAll", "isInteger", "isFloat",
            "isNumber", "isString", "isBoolean", "isCollection", "isIsoDate", "toDate", "formatDate", "daysBeforeNow",
            "daysAfterNow", "exists",
        ] {
            #expect(Functions.names.contains(name) && Functions.arity(name) != nil, "\(name)")
        }
    }
}
