import FlowSandbox
import Foundation
import Testing

/// Text a server or a command wrote reaches the terminal with its control characters escaped: a
/// response body or a stderr holding ESC, OSC or BEL cannot retitle the window, clear the screen
/// or print fake lines through flow's messages and summary.
@Suite struct ServerTextEscapingTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-escape-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func escapeSequencesFromAResponseBodyAndAStderrAreEscapedInErrorsAndTheSummary() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        // The sandbox answers 500 with the body sent: a window title (OSC … BEL), a screen clear
        // (ESC [2J) and a fake success line after a carriage return.
        let file = try write(
            """
            version: 1
            steps:
              hostile:
                http:
                  method: POST
                  url: \(sandbox.baseURL)/reflect/500
                  body: "\\e]0;pwned\\a\\e[2J\\rflow: succeeded"
              command:
                run: printf '\\033]0;pwned\\007\\033[2J\\n' >&2; exit 3
              checked:
                http: { method: POST, url: "\(sandbox.baseURL)/reflect/200", body: "\\e[31mred" }
                expect:
                  assert: ["${{ result.body == 'plain' }}"]
            """)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        // A command's own lines (`[id] | …`) are its output, passed through as written; every
        // other line is flow's: errors, the failure lines and the summary.
        let all = (outcome.stdout + outcome.stderr).split(separator: "\n").filter { !$0.contains("] | ") }
            .joined(separator: "\n")
        #expect(!all.unicodeScalars.contains("\u{1B}"), "an ESC reached the terminal: \(all.debugDescription)")
        #expect(!all.unicodeScalars.contains("\u{07}"), "a BEL reached the terminal: \(all.debugDescription)")
        #expect(all.contains(#"the response began: \u{1B}]0;pwned\u{7}\u{1B}[2J\u{D}flow: succeeded"#), "\(all)")
        #expect(all.contains(#"the command exited with code 3: \u{1B}]0;pwned\u{7}\u{1B}[2J"#), "\(all)")
        #expect(all.contains(#"result.body was '\u{1B}[31mred\u{A}POST /reflect/200"#), "\(all)")
    }
}
