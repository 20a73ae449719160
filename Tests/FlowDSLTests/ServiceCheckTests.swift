import FlowDSL
import Testing

/// `services:`: parsing, the readiness forms, and the `services.*` / `flow.*` roots, each mistake
/// reported with its place and a hint.
@Suite struct ServiceCheckTests {
    private func check(_ services: String, steps: String = "  a: { run: echo }\n") -> CheckResult {
        WorkflowLoader.check(source: "version: 1\nservices:\n" + services + "steps:\n" + steps, file: "s.yaml")
    }

    /// `line:col: message (hint)` of every error.
    private func errors(_ result: CheckResult) -> [String] {
        result.diagnostics.filter { $0.severity == .error }.map { diagnostic in
            let place = diagnostic.location.map { "\($0.line):\($0.column): " } ?? ""
            return place + diagnostic.message + (diagnostic.hint.map { " (\($0))" } ?? "")
        }
    }

    @Test func theDemoServiceParsesWithItsParts() throws {
        let result = check(
            """
              sandbox:
                run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
                ready: { http: "${{ services.sandbox.url }}/health" }
                timeout: 5s
                env: { MODE: "${{ services.sandbox.url }}" }
              plain:
                run: python3 -m http.server "${{ services.plain.port }}"
              byPort:
                run: sleep 1
                ready: { port: "${{ services.plain.port }}" }
              fixed:
                run: sleep 1
                ready: { port: 8089 }

            """,
            steps: """
                  hello: { http: { url: "${{ services.sandbox.url }}/health" } }
                  show: { run: "echo ${{ services.plain.port }} ${{ flow.executable }}" }
                """)
        #expect(errors(result) == [])
        let workflow = try #require(result.workflow)
        #expect(workflow.services.map(\.name) == ["sandbox", "plain", "byPort", "fixed"])
        let sandbox = try #require(workflow.service("sandbox"))
        #expect(sandbox.location.line == 3 && sandbox.location.column == 3)
        #expect(sandbox.timeout == .seconds(5))
        #expect(sandbox.env.map(\.name) == ["MODE"])
        guard case .arguments(let argv) = sandbox.command, case .http(let url) = sandbox.ready else {
            Issue.record("expected an argv and an http check")
            return
        }
        #expect(argv.map(\.text) == ["${{ flow.executable }}", "sandbox", "--port", "${{ services.sandbox.port }}"])
        #expect(url.text == "${{ services.sandbox.url }}/health")
        let plain = try #require(workflow.service("plain"))
        #expect(plain.ready == .ownPort)
        #expect(plain.timeout == Service.defaultTimeout)
        guard case .script = plain.command else {
            Issue.record("a string is a script")
            return
        }
        guard case .port(let port) = try #require(workflow.service("fixed")).ready else {
            Issue.record("expected a port check")
            return
        }
        #expect(port.text == "8089")
    }

    @Test func aServiceWithoutRunIsAnError() {
        #expect(
            errors(check("  api:\n    ready: { port: 80 }\n")) == [
                "3:3: service 'api' has no 'run' (add 'run:' with the command that starts it, "
                    + "e.g. run: [\"python3\", \"-m\", \"http.server\"])"
            ])
    }

    @Test func anUnknownKeyGetsASuggestion() {
        #expect(
            errors(check("  api:\n    run: sleep 1\n    readdy: { port: 80 }\n")) == [
                "5:5: unknown key 'readdy' in service 'api' (did you mean 'ready'?)"
            ])
    }

    @Test func readyNeedsExactlyOneOfHTTPAndPort() {
        let both = errors(check("  api:\n    run: sleep 1\n    ready: { http: \"http://127.0.0.1:1/\", port: 80 }\n"))
        #expect(both.count == 1)
        #expect(both.first?.hasPrefix("5:43: 'ready' of service 'api' has both 'http' and 'port'") == true, "\(both)")
        let neither = errors(check("  api:\n    run: sleep 1\n    ready: {}\n"))
        #expect(neither.count == 1)
        #expect(neither.first?.hasPrefix("5:12: 'ready' of service 'api' needs 'http' or 'port'") == true)
        let unknown = errors(check("  api:\n    run: sleep 1\n    ready: { tcp: 80 }\n"))
        #expect(unknown == ["5:14: unknown key 'tcp' in 'ready' of service 'api'"])
        let scalar = errors(check("  api:\n    run: sleep 1\n    ready: 80\n"))
        #expect(
            scalar.first?.hasPrefix("5:12: 'ready' of service 'api' must be a mapping with 'http' or 'port'") == true)
    }

    @Test func badPortsTimeoutsAndNamesAreErrors() {
        #expect(
            errors(check("  api:\n    run: sleep 1\n    ready: { port: 70000 }\n")) == [
                "5:20: 'ready.port' must be a port number (1–65535) or an expression, not '70000'"
            ])
        #expect(
            errors(check("  api:\n    run: sleep 1\n    timeout: soon\n")) == [
                "5:14: 'timeout' 'soon' is not a duration (write a duration like 250ms, 10s, 1m30s or 1h, or a number of seconds)"
            ])
        #expect(
            errors(check("  9api:\n    run: sleep 1\n")) == [
                "3:3: service name '9api' is not valid (names match [A-Za-z_][A-Za-z0-9_-]*)"
            ])
        #expect(errors(check("  api:\n    run: \"\"\n")) == ["4:5: 'run' has an empty script"])
    }

    @Test func anUnknownServiceReferenceIsLocatedWithASuggestion() {
        let result = check(
            "  sandbox:\n    run: sleep 1\n",
            steps: "  hello: { http: { url: \"${{ services.sandbx.url }}/health\" } }\n")
        #expect(
            errors(result) == [
                "6:30: unknown service 'sandbx' in 'services.sandbx' (did you mean 'sandbox'?)"
            ])
        let rendered = result.renderedDiagnostics()
        #expect(rendered.contains("s.yaml:6:30: error: unknown service 'sandbx'"))
    }

    @Test func unknownPropertiesOfServicesAndFlowAreErrors() {
        let result = check(
            "  sandbox:\n    run: [\"${{ flow.executabel }}\", \"${{ services.sandbox.prot }}\"]\n",
            steps: "  a: { run: \"echo ${{ flow.other }}\" }\n")
        #expect(
            errors(result) == [
                "4:16: 'flow' has no property 'executabel' (did you mean 'executable'?)",
                "4:42: services.sandbox has no property 'prot' (did you mean 'port'?)",
                "6:23: 'flow' has no property 'other' (flow.executable is the path of the running flow binary)",
            ])
    }

    @Test func servicesMayNotReadSteps() {
        let result = check(
            "  api:\n    run: \"echo ${{ steps.a.status }}\"\n",
            steps: "  a: { run: echo }\n")
        #expect(
            errors(result) == [
                "4:20: 'steps' is not available here; workflow-level values are known before any step runs"
            ])
    }

    @Test func servicesRootsWorkInEnvDefaultsAndConditions() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                services:
                  api: { run: sleep 1 }
                env: { API: "${{ services.api.url }}" }
                defaults:
                  http: { base-url: "${{ services.api.url }}", headers: { X-Port: "${{ services.api.port }}" } }
                steps:
                  a:
                    if: services.api.port > 0 && flow.executable != ''
                    http: { url: /x }
                """, file: "s.yaml")
        #expect(errors(result) == [])
    }

    @Test func withoutServicesTheRootStillNamesUndeclaredOnes() {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a: { run: \"echo ${{ services.api.port }}\" }\n", file: "s.yaml")
        #expect(errors(result) == ["3:23: unknown service 'api' in 'services.api' (declare it under 'services:')"])
    }

    @Test func secretsReadByServicesMustBeSet() {
        let result = check(
            "  api:\n    run: \"echo ${{ secrets.KEY }}\"\n    env: { TOKEN: \"${{ secrets.TOKEN }}\" }\n")
        #expect(result.workflow?.secretReferences().map(\.name) == ["KEY", "TOKEN"])
    }
}
