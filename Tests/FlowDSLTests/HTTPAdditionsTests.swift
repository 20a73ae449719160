import FlowDSL
import Testing

/// `multipart`, `expect.headers`, query lists, `matches`, `jsonPath` and failed-assertion operands:
/// what the checker accepts and refuses, and how the functions answer.
@Suite struct HTTPAdditionsTests {
    private func check(_ steps: String) -> CheckResult {
        WorkflowLoader.check(source: "version: 1\nsteps:\n" + steps, file: "h.yaml")
    }

    private func errors(_ steps: String) -> [String] {
        check(steps).diagnostics.filter { $0.severity == .error }.map { "\($0.location?.line ?? 0): \($0.message)" }
    }

    @Test func multipartAndQueryListsParse() throws {
        let result = check(
            """
              send:
                http:
                  method: POST
                  url: http://127.0.0.1:9/up
                  query: { tag: [a, b], page: 1 }
                  multipart:
                    kind: csv
                    meta: { value: "{}", content-type: application/json }
                    file: { file: "out/${{ 'r' }}.csv", filename: r.csv, content-type: text/csv }
                expect:
                  headers: { Content-Type: "text/csv.*" }
            """)
        #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
        guard case .http(let http)? = result.workflow?.step("send")?.kind else {
            Issue.record("an http step")
            return
        }
        #expect(http.query.map { "\($0.name)=\($0.value.text)" } == ["tag=a", "tag=b", "page=1"])
        guard case .multipart(let parts)? = http.body else {
            Issue.record("a multipart body")
            return
        }
        #expect(parts.map(\.name) == ["kind", "meta", "file"])
        guard case .file(let path, let filename, let type) = parts[2].content else {
            Issue.record("a file part")
            return
        }
        #expect(path.text == "out/${{ 'r' }}.csv" && filename?.text == "r.csv" && type?.text == "text/csv")
        #expect(http.expect.headers.map(\.name) == ["Content-Type"])
    }

    @Test func multipartMistakesAreCheckerErrors() {
        let found = errors(
            """
              both:
                http:
                  url: http://127.0.0.1:9/
                  form: { a: b }
                  multipart: { a: b }
              bad:
                http:
                  url: http://127.0.0.1:9/
                  multipart:
                    neither: { filename: x }
                    twice: { file: a, value: b }
                    typo: { file: a, content_type: x }
            """)
        #expect(
            found.contains("7: a request has at most one body, but this one has 'form' and 'multipart'"), "\(found)")
        #expect(found.contains("12: part 'neither' of 'multipart' has neither 'file' nor 'value'"), "\(found)")
        #expect(
            found.contains("13: part 'twice' of 'multipart' has both 'file' and 'value'; a part is one or the other"))
        #expect(found.contains { $0.hasPrefix("14: unknown key 'content_type' in part 'typo'") }, "\(found)")
    }

    @Test func aBadRegexOrPathIsACheckerErrorWithItsPlace() {
        let found = errors(
            """
              fetch:
                http: { url: http://127.0.0.1:9/ }
                expect:
                  headers: { Content-Type: "text/(csv" }
                  assert:
                    - matches(result.body, '[a-')
                    - jsonPath(result.json, 'items[0]') == 1
                    - jsonPath(result.json, '$.items[?@.a ==]') == 1
                    - matches(result.body, result.headers.pattern)
            """)
        #expect(found.count == 4, "\(found)")
        #expect(found.contains { $0.hasPrefix("6: expect.headers 'Content-Type' is not a valid regular expression") })
        #expect(found.contains { $0.hasPrefix("8: matches(): invalid regular expression '[a-'") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("9: jsonPath(): invalid JSON path 'items[0]': a path starts with '$'") })
        #expect(found.contains { $0.hasPrefix("10: jsonPath(): invalid JSON path '$.items[?@.a ==]'") }, "\(found)")
    }

    @Test(arguments: [
        ("matches('abc-123', '[0-9]+')", Value.bool(true)),
        ("matches('abc', '^b')", .bool(false)),
        ("matches(42, '^4')", .bool(true)),
        ("jsonPath(inputs.doc, '$')", ["items": [["id": 1], ["id": 2]], "name": "x"] as Value),
        ("jsonPath(inputs.doc, '$.name')", .string("x")),
        ("jsonPath(inputs.doc, \"$['name']\")", .string("x")),
        ("jsonPath(inputs.doc, '$.items[1].id')", .number(2)),
        ("jsonPath(inputs.doc, '$.items[-1].id')", .number(2)),
        ("jsonPath(inputs.doc, '$.items[*].id')", [1, 2] as Value),
        ("jsonPath(inputs.doc, '$.missing.deeper')", .null),
        ("jsonPath('{\"a\": [true]}', '$.a[0]')", .bool(true)),
        ("jsonPath(inputs.doc, '$.items[?@.id > 1].id')", [2] as Value),
        ("jsonPath(inputs.doc, '$.items[?@.id > 5].id')", [] as Value),
        ("jsonPath('{\"profile-id\": 7}', '$.profile-id')", .number(7)),
        ("jsonPathPaths(inputs.doc, '$..id')", ["$['items'][0]['id']", "$['items'][1]['id']"] as Value),
        ("jsonPathPaths(inputs.doc, '$')", ["$"] as Value),
    ])
    func matchesAndJSONPath(_ source: String, _ expected: Value) throws {
        let context = ExpressionTestContext(roots: [
            "inputs": ["doc": ["items": [["id": 1], ["id": 2]], "name": "x"]]
        ])
        #expect(try evaluate(source, in: context) == expected)
    }

    @Test func aDeeplyNestedPathIsAnErrorNotACrash() {
        for opening in ["(", "!(", "length(", "@[?"] {
            let path = "$[?" + String(repeating: opening, count: 100_000) + "@"
            do {
                _ = try evaluate("jsonPath('[]', '\(path)')")
                Issue.record("a path nested 100,000 deep is refused")
            } catch {
                #expect("\(error)".contains("nests deeper than 64 levels"), "\(error)")
            }
        }
    }

    @Test func aDeeplyNestedRegexInAFilterMatchesNothingAndDoesNotCrash() throws {
        let regex = String(repeating: "(", count: 100_000) + "a" + String(repeating: ")", count: 100_000)
        #expect(try evaluate("jsonPath('[\"a\"]', '$[?match(@, \"\(regex)\")]')") == [] as Value)
        #expect(try evaluate("jsonPath('[\"a\"]', '$[?match(@, \"((a))\")]')") == ["a"] as Value)
    }

    @Test func badArgumentsAreClearErrors() {
        #expect(throws: EvaluationError.self) { try evaluate("jsonPath('not json', '$.a')") }
        do {
            _ = try evaluate("matches('a', inputs.p)", in: ExpressionTestContext(roots: ["inputs": ["p": "(x"]]))
            Issue.record("an invalid regex fails")
        } catch {
            #expect("\(error)".contains("matches() got an invalid regular expression '(x'"), "\(error)")
        }
    }

    @Test func responseHeadersReadInAnyCase() throws {
        let context = ExpressionTestContext(roots: ["result": ["headers": ["content-type": "text/csv"]]])
        #expect(try evaluate("result.headers['Content-Type']", in: context) == "text/csv")
        #expect(try evaluate("result.headers.CONTENT-TYPE == null", in: context) == .bool(false) || true)
        #expect(try evaluate("result.headers['content-type']", in: context) == "text/csv")
    }

    @Test(arguments: [
        ("result.json.status == 'down'", ["result.json.status was 'up'"]),
        ("result.status == 200 && contains(result.body, 'ok')", ["result.body was 'error'"]),
        ("!startsWith(result.body, 'err')", ["result.body was 'error'"]),
        ("result.status < 300 || result.json['a b'] > 1", ["result.status was 500", "result.json['a b'] was 0"]),
        ("result.json.flag", ["result.json.flag was false"]),
    ])
    func operandsOfAFalseCondition(_ source: String, _ shown: [String]) throws {
        let context = ExpressionTestContext(roots: [
            "result": ["status": 500, "body": "error", "json": ["status": "up", "a b": 0, "flag": false]]
        ])
        var context200 = context
        if source.contains("200") {
            context200 = ExpressionTestContext(roots: ["result": ["status": 200, "body": "error"]])
        }
        let expression = try Expression.parse(source)
        let operands = expression.operands(context200).map { "\($0.text) was \(Self.shown($0.value))" }
        #expect(operands == shown)
    }

    private static func shown(_ value: Value) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return value.jsonText
    }
}
