import FlowDSL
import Testing

/// What a message quotes back from the file is short and printable, and the file's own
/// encoding details (a byte-order mark) do not get in the way.
@Suite struct EchoedTextTests {
    @Test func aByteOrderMarkIsAccepted() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("version: 1\nsteps:\n  a: { sleep: 1s }\n".utf8)
        let result = WorkflowLoader.check(bytes: bytes, file: "bom.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
        #expect(result.workflow?.step("a") != nil)
    }

    @Test func aHugeUnknownNameIsCutInTheMessage() throws {
        let name = String(repeating: "y", count: 1 << 20)
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a:\n    needs: [\(name)]\n    sleep: 1s\n", file: "huge.yaml")
        let error = try #require(result.diagnostics.first)
        #expect(error.message == "step 'a' needs unknown step '\(String(repeating: "y", count: Echo.limit))…'")
        // The whole rendering (message, windowed snippet, caret) stays small.
        #expect(result.renderedDiagnostics().count < 1000)
    }

    @Test func bidiAndControlCharactersAreEscapedInMessagesAndReplacedInSnippets() throws {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a:\n    needs: \"admin\u{202E}txt.exe\"\n    sleep: 1s\n", file: "bidi.yaml")
        let error = try #require(result.diagnostics.first)
        #expect(error.message == "step 'a' needs unknown step 'admin\\u{202E}txt.exe'")
        let rendered = result.renderedDiagnostics()
        #expect(!rendered.unicodeScalars.contains { $0.value == 0x202E })
        #expect(rendered.contains("    4 |     needs: \"admin\u{FFFD}txt.exe\"\n"))
        // The caret still lines up under the value.
        #expect(rendered.contains("      |            ^~~~~~~~~~~~~\n"))
    }

    @Test func echoCutsAndEscapes() {
        #expect(Echo.text("short") == "short")
        #expect(Echo.text(String(repeating: "é", count: 61)) == String(repeating: "é", count: 60) + "…")
        #expect(Echo.text("a\u{1B}[31mb\u{2067}") == "a\\u{1B}[31mb\\u{2067}")
    }
}

/// `${{ }}` in a shell script reaches it as `${FLOW_EXPR_n}`, which single quotes keep literal.
@Suite struct ShellQuoteTests {
    private func warnings(_ script: String) -> [String] {
        let yaml =
            "version: 1\nsteps:\n  a:\n    run: |\n" + script.split(separator: "\n").map { "      \($0)\n" }.joined()
        let result = WorkflowLoader.check(source: yaml, file: "s.yaml")
        #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
        return result.diagnostics.map(\.message)
    }

    @Test func singleQuotesAndQuotedHeredocsAreWarned() {
        #expect(
            warnings("echo ok\necho '${{ env.HOME }}'") == [
                "'${{ }}' inside single quotes (line 2 of the script): the shell does not expand it, so the command "
                    + "sees the text '${FLOW_EXPR_1}' instead of the value"
            ])
        #expect(
            warnings("cat <<'EOF'\n${{ env.HOME }}\nEOF\necho \"${{ env.USER }}\"") == [
                "'${{ }}' inside a heredoc with a quoted delimiter (line 2 of the script): the shell does not "
                    + "expand it, so the command sees the text '${FLOW_EXPR_1}' instead of the value"
            ])
    }

    @Test func expandedPlacesAreNotWarned() {
        #expect(warnings("echo \"${{ env.HOME }}\" ${{ env.USER }}") == [])
        #expect(warnings("echo \"it's ${{ env.HOME }}\"") == [])
        #expect(warnings("echo don\\'t ${{ env.HOME }}") == [])
        #expect(warnings("cat <<EOF\n'${{ env.HOME }}'\nEOF") == [])
        #expect(warnings("# '${{ env.HOME }}' in a comment\necho hi") == [])
    }

    @Test func aOneLineScriptPointsAtTheExpression() throws {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a:\n    run: echo '${{ env.HOME }}'\n", file: "s.yaml")
        let warning = try #require(result.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.location == SourceLocation(file: "s.yaml", line: 4, column: 16))
        #expect(warning.hint?.contains("double quotes") == true)
    }
}

/// Relative request URLs are found by `validate` when no `defaults.http.base-url` could resolve them.
@Suite struct RelativeURLTests {
    private func errors(_ url: String, baseURL: String? = nil) -> [String] {
        var yaml = "version: 1\ninputs:\n  base: { default: \"http://h\" }\n"
        if let baseURL { yaml += "defaults: { http: { base-url: \"\(baseURL)\" } }\n" }
        yaml += "steps:\n  a:\n    http: { url: \"\(url)\" }\n"
        return WorkflowLoader.check(source: yaml, file: "u.yaml").diagnostics.map(\.message)
    }

    @Test func relativeURLsWithoutABaseAreErrors() {
        let message = "the URL '/users' of step 'a' is relative and there is no defaults.http.base-url"
        #expect(errors("/users") == [message])
        #expect(errors("users/${{ inputs.base }}").count == 1)
        #expect(errors("ftp://h/x").count == 1)
    }

    @Test func urlsThatMayBeAbsoluteAreLeftToTheRun() {
        #expect(errors("http://h/users") == [])
        #expect(errors("HTTPS://h/users") == [])
        #expect(errors("${{ inputs.base }}/users") == [])
        #expect(errors("http${{ inputs.base }}") == [])
        #expect(errors("/users", baseURL: "${{ inputs.base }}") == [])
    }
}
