import FlowSandbox
import Foundation
import Testing

/// Every value of a repeated response header and every cookie a response sets, read in a real run
/// against the sandbox's `/response-headers`, which sends what the query names.
@Suite struct ResponseHeaderRunTests {
    @Test func everyValueOfARepeatedHeaderAndEveryCookieCanBeChecked() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "headers.yaml",
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "\(sandbox.baseURL)/response-headers"
                  query:
                    X-Served-By: [edge-1, origin-2]
                    Set-Cookie:
                      - "LSID=DQAAAKEaem_vYg; Path=/accounts; Expires=Wed, 13 Jan 2021 22:23:01 GMT; Secure; HttpOnly"
                      - "HSID=AYQEVnDKrdst; Domain=.Localhost; Path=/; Max-Age=2592000; SameSite=Lax"
                      - "SSID=Ap4P; path=/; max-age=oops"
                expect:
                  headers: { X-Served-By: "origin-.*" }
                  assert:
                    - result.headers['x-served-by'] == 'edge-1'
                    - length(result.header_values['X-Served-By']) == 2
                    - result.header_values['x-served-by'][1] == 'origin-2'
                    - contains(result.header_values['set-cookie'][2], 'SSID')
                    - result.cookies.LSID.value == 'DQAAAKEaem_vYg'
                    - result.cookies.LSID.path == '/accounts'
                    - result.cookies.LSID.expires == 'Wed, 13 Jan 2021 22:23:01 GMT'
                    - result.cookies.LSID.secure && result.cookies.LSID.http_only
                    - result.cookies.LSID.domain == null && result.cookies.LSID.max_age == null
                    - result.cookies.HSID.domain == 'localhost'
                    - result.cookies.HSID.max_age == 2592000
                    - result.cookies.HSID.same_site == 'Lax'
                    - "!result.cookies.HSID.secure && !result.cookies.HSID.http_only"
                    - result.cookies.SSID.path == '/' && result.cookies.SSID.max_age == null
                outputs:
                  second: ${{ result.header_values['X-Served-By'][1] }}
                  cookies: ${{ length(result.header_values['set-cookie']) }}
              show:
                needs: fetch
                run: echo "second=${{ steps.fetch.outputs.second }} cookies=${{ steps.fetch.outputs.cookies }}"
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("second=origin-2 cookies=3"), "\(outcome.stdout)")
    }

    @Test func anExpectedHeaderThatNoValueMatchesListsEveryValue() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write(
            "headers.yaml",
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "\(sandbox.baseURL)/response-headers"
                  query: { X-Served-By: [edge-1, origin-2] }
                expect:
                  headers: { X-Served-By: "cache-.*" }
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode != 0)
        let text = outcome.stdout + outcome.stderr
        #expect(
            text.contains(
                #"expected header 'X-Served-By' to match 'cache-.*', but its values were ["edge-1","origin-2"]"#),
            "\(text)")
    }
}
