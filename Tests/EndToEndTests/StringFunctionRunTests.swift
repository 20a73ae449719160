import FlowSandbox
import Foundation
import Testing

/// The string functions in a real run: a name the server sends is cleaned into a file name and a
/// query value before it is used.
@Suite struct StringFunctionRunTests {
    @Test func aServerSuppliedNameIsCleanedIntoAFileNameAndAQueryValue() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        // `/reflect` echoes the body first, then a line break and the request line: the name is
        // the first line of what comes back.
        let file = try scratch.write(
            "clean.yaml",
            """
            version: 1
            inputs:
              odd: { type: string, default: "a+b&c=d?e#f%g~h_i-j*k'l(m)n!o@p$q,r;s:t[u]v{w}x|y^z`é/ 1" }
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              name:
                http: { method: POST, url: "/reflect/200?as=json", body: "  ../../Quarterly Report.PDF  " }
                outputs:
                  raw: "${{ split(result.json.reflected, '\\n')[0] }}"
              fetch:
                needs: name
                http:
                  url: "/reflect/200?name=${{ urlEncode(trim(steps.name.outputs.raw)) }}&odd=${{ urlEncode(inputs.odd) }}"
                  query: { same: "${{ inputs.odd }}" }
                  save-to: "downloads/${{ lower(basename(trim(steps.name.outputs.raw))) }}"
              count:
                needs: name
                run: echo "${{ upper(substring(replace(trim(steps.name.outputs.raw), '../', ''), -3)) }} ${{ toNumber(' 7 ') }}"
                outputs: { said: "${{ trim(result.stdout) }}" }
            """)
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let saved = scratch.folder.appendingPathComponent("downloads/quarterly report.pdf")
        let body = try String(contentsOf: saved, encoding: .utf8)
        #expect(body.contains("GET /reflect/200?name=..%2F..%2FQuarterly%20Report.PDF&odd="), "\(body)")
        // urlEncode() encodes as `query:` does: one rule for a value in a URL.
        let target = try #require(body.split(separator: "\n").first { $0.hasPrefix("GET ") })
        let odd = target.split(separator: "&").first { $0.hasPrefix("odd=") }?.dropFirst(4)
        let same = target.split(separator: "&").first { $0.hasPrefix("same=") }?.dropFirst(5)
        #expect(odd != nil && odd == same, "\(target)")
        #expect(outcome.stdout.contains("PDF 7"), "\(outcome.stdout)")
    }
}
