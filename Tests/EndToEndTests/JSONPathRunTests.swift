import FlowSandbox
import Foundation
import Testing

/// RFC 9535 JSONPath in a real run: the RFC's bookstore goes to the sandbox and back, and
/// `jsonPath()` queries the answer with filters, slices, unions, descendants and functions;
/// `validate` refuses an invalid literal path at its place before anything runs.
@Suite struct JSONPathRunTests {
    @Test func filtersSlicesUnionsDescendantsAndFunctionsQueryAResponse() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "books.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              store:
                http:
                  method: POST
                  url: /echo
                  json:
                    store:
                      book:
                        - { category: reference, author: Nigel Rees, title: Sayings of the Century, price: 8.95 }
                        - { category: fiction, author: Evelyn Waugh, title: Sword of Honour, price: 12.99 }
                        - { category: fiction, author: Herman Melville, title: Moby Dick, isbn: 0-553-21311-3, price: 8.99 }
                        - { category: fiction, author: J. R. R. Tolkien, title: The Lord of the Rings, isbn: 0-395-19395-8, price: 22.99 }
                      bicycle: { color: red, price: 399 }
                expect:
                  assert:
                    - jsonPath(result.json.body, '$.store.bicycle.color') == 'red'
                    - jsonPath(result.json.body, '$.store.book[?@.price > 100]') == jsonPath('[]', '$')
                    - length(jsonPath(result.json.body, '$..author')) == 4
                outputs:
                  cheap: "${{ join(jsonPath(result.json.body, '$.store.book[?@.price < 10].title'), '|') }}"
                  backwards: "${{ join(jsonPath(result.json.body, '$.store.book[::-2].author'), '|') }}"
                  ends: "${{ join(jsonPath(result.json.body, '$.store.book[0, -1].author'), '|') }}"
                  prices: "${{ join(jsonPath(result.json.body, '$..price'), '|') }}"
                  long: "${{ join(jsonPath(result.json.body, \\"$.store.book[?match(@.category, 'fic.*') && length(@.title) > 10].title\\"), '|') }}"
                  isbn: "${{ join(jsonPath(result.json.body, '$.store.book[?count(@.*) == 5 && search(@.author, \\"Tolk\\")].isbn'), '|') }}"
                  value: "${{ join(jsonPath(result.json.body, \\"$.store.book[?value(@..isbn) == '0-553-21311-3'].title\\"), '|') }}"
                  where: "${{ join(jsonPathPaths(result.json.body, '$..[?@.isbn]'), ' ') }}"
              show:
                needs: store
                run: |
                  echo "cheap=${{ steps.store.outputs.cheap }}"
                  echo "backwards=${{ steps.store.outputs.backwards }}"
                  echo "ends=${{ steps.store.outputs.ends }}"
                  echo "prices=${{ steps.store.outputs.prices }}"
                  echo "long=${{ steps.store.outputs.long }}"
                  echo "isbn=${{ steps.store.outputs.isbn }}"
                  echo "value=${{ steps.store.outputs.value }}"
                  echo "where=${{ steps.store.outputs.where }}"
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        for line in [
            "cheap=Sayings of the Century|Moby Dick",
            "backwards=J. R. R. Tolkien|Evelyn Waugh",
            "ends=Nigel Rees|J. R. R. Tolkien",
            // Object members in key order: `bicycle` before `book`.
            "prices=399|8.95|12.99|8.99|22.99",
            "long=Sword of Honour|The Lord of the Rings",
            "isbn=0-395-19395-8",
            "value=Moby Dick",
            "where=$['store']['book'][2] $['store']['book'][3]",
        ] {
            #expect(outcome.stdout.contains(line), "\(line) in \(outcome.stdout)")
        }
    }

    @Test func validateRefusesAnInvalidLiteralPathAtItsPlace() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "bad.yaml",
            """
            version: 1
            steps:
              fetch:
                http: { url: "http://127.0.0.1:9/" }
                outputs:
                  fine: "${{ jsonPath(result.json, '$.items[?@.price < 10 && match(@.name, \\"a.*\\")].id') }}"
                  slice: "${{ jsonPath(result.json, '$.items[1:2:-0]') }}"
                  typed: "${{ jsonPath(result.json, '$.items[?length(@.*) > 1]') }}"
            """)
        let outcome = try await FlowProcess.run(["validate", file])
        #expect(outcome.exitCode == 2, "\(outcome.stdout)\(outcome.stderr)")
        let text = outcome.stdout + outcome.stderr
        #expect(text.contains("bad.yaml:7:"), "\(text)")
        #expect(text.contains("jsonPath(): invalid JSON path '$.items[1:2:-0]': '-0' is not an integer"), "\(text)")
        #expect(text.contains("bad.yaml:8:"), "\(text)")
        #expect(
            text.contains("argument 1 of length() takes a single value: a query there must be singular"), "\(text)")
        // Line 6 is a valid path: at most the warning that its output is never read.
        #expect(!text.split(separator: "\n").contains { $0.contains("bad.yaml:6:") && $0.contains("error") }, "\(text)")
    }
}
