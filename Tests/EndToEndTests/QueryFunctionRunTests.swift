import FlowSandbox
import Foundation
import Testing

/// The query functions in a real run against `flow sandbox`: XPath on an XML and an HTML response,
/// hashes of the body, a regex capture, type tests, an HTTP date, and `exists` on an output that
/// holds `null`.
@Suite struct QueryFunctionRunTests {
    @Test func xmlAndHTMLResponsesAreQueriedHashedAndDated() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "queries.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              book:
                http: { url: /documents/books.xml }
                expect:
                  assert:
                    - xpath(result.body, 'string(//_:book/_:title)') == 'Cheaper by the Dozen'
                    - xpath(result.body, 'string(//_:book/isbn:number)') == '1568491379'
                    - xpath(result.body, 'number(//_:price)') == 12.5
                    - xpath(result.body, '//_:price/@currency')[0] == 'EUR'
                    - length(xpath(result.body, "//*[local-name()='title']")) == 1
                    # Digests of the route's body as Python's hashlib gives them.
                    - sha256(result.body) == '0f4ff7b7550f9d18e4479ededc0f2a8fb94a766a5093fcb10fd0e0cf1eca1bb2'
                    - md5(result.body, 'base64') == 'ZoBCdKZoGMlTay4QA0h7eg=='
                    - formatDate(toDate(result.headers.last-modified), '%Y') == '2015'
                    - daysBeforeNow(result.headers.last-modified) > 3000
                outputs:
                  title: "${{ xpath(result.body, 'string(//_:title)') }}"
                  missing: "${{ capture(result.body, 'ISBN ([0-9]+)') }}"
              page:
                http: { url: /documents/page.html }
                expect:
                  assert:
                    - htmlXPath(result.body, 'string(//title)') == 'Café & books'
                    - htmlXPath(result.body, '//li') == fromJSON('["Cheaper by the Dozen", "Belles on Their Toes"]')
                    - htmlXPath(result.body, 'string(//a/@href)') == '/documents/books.xml'
                    - capture(result.body, '<h1 id="([a-z]+)">') == 'top'
                    - isInteger(length(result.body)) && isString(result.body) && isCollection(result.headers)
                    - isIsoDate(toDate(result.headers.last-modified))
              after:
                needs: [book, page]
                if: exists(steps.book.outputs.missing) && !exists(steps.book.outputs.title.deeper)
                run: echo "title=${{ steps.book.outputs.title }} missing=${{ toJSON(steps.book.outputs.missing) }}"
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("title=Cheaper by the Dozen missing=null"), "\(outcome.stdout)")
    }

    @Test func anXPathOnHTMLParsedAsXMLFailsNamingTheStep() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "bad.yaml",
            """
            version: 1
            steps:
              page:
                http: { url: "\(sandbox.baseURL)/documents/page.html" }
                expect:
                  assert:
                    - xpath(result.body, '//li') == 'x'
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        let output = outcome.stdout + outcome.stderr
        #expect(output.contains("page"), "\(output)")
        #expect(output.contains("xpath('//li'): the document is not well-formed XML: line "), "\(output)")
    }
}
