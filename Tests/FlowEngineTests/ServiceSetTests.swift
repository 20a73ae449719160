import Dispatch
import FlowDSL
import FlowEngine
import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// Services as `flow run` starts them: real processes on loopback ports, real readiness checks.
@Suite struct ServiceSetTests {
    /// The workflow, its endpoints and its options, from YAML text.
    private func prepare(
        _ yaml: String, secrets: [String: String] = [:]
    ) throws -> (workflow: Workflow, options: RunOptions, services: ServiceSet) {
        let checked = WorkflowLoader.check(source: yaml, file: "services.yaml")
        guard let workflow = checked.workflow, !checked.hasErrors else {
            throw HarnessError(message: checked.diagnostics.map(\.message).joined(separator: "\n"))
        }
        let options = RunOptions(
            secrets: SecretStore(values: secrets), services: try ServiceEndpoint.allocate(for: workflow.services))
        return (workflow, options, try ServiceSet(workflow: workflow, options: options))
    }

    private func waitUntilGone(_ pid: pid_t) async throws -> Bool {
        for _ in 0..<400 {
            if !isRunning(pid) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    private func pid(from file: URL) async throws -> pid_t {
        for _ in 0..<500 {
            if let text = try? String(contentsOf: file, encoding: .utf8),
                let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                return pid
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return 0
    }

    @Test func portsAreDistinctAndFree() throws {
        let checked = WorkflowLoader.check(
            source:
                "version: 1\nservices:\n  a: { run: x }\n  b: { run: x }\n  c: { run: x }\nsteps:\n  s: { run: x }\n",
            file: "p.yaml")
        let endpoints = try ServiceEndpoint.allocate(for: try #require(checked.workflow).services)
        #expect(Set(endpoints.values.map(\.port)).count == 3)
        #expect(endpoints["a"].map { $0.url == "http://127.0.0.1:\($0.port)" } == true)
        // Below the ephemeral range, where no outgoing connection and no bind to port 0 can take
        // a port between flow choosing it and the service binding it.
        if let below = ServiceEndpoint.portsBelowEphemeralRange() {
            #expect(endpoints.values.allSatisfy { below.contains($0.port) }, "\(endpoints.values.map(\.port))")
        }
    }

    @Test func realServersBecomeReadyByPortAndByHTTPAndStepsReachThem() async throws {
        let (workflow, options, services) = try prepare(
            """
            version: 1
            services:
              byPort:
                run: [python3, -m, http.server, "${{ services.byPort.port }}", --bind, 127.0.0.1]
              byHTTP:
                run: python3 -m http.server "${{ services.byHTTP.port }}" --bind 127.0.0.1
                ready: { http: "${{ services.byHTTP.url }}/" }
            defaults:
              http: { base-url: "${{ services.byHTTP.url }}" }
            steps:
              listing: { http: { url: / } }
              other: { http: { url: "${{ services.byPort.url }}/" } }
              show: { run: "echo ${{ services.byPort.port }}", outputs: { port: "${{ result.stdout }}" } }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        let ready = try await services.start(client: client).value
        #expect(ready.map(\.name) == ["byPort", "byHTTP"])
        #expect(ready[0].check == .port(options.services["byPort"]!.port))
        #expect(ready[1].check == .http(options.services["byHTTP"]!.url + "/"))
        #expect(ready.allSatisfy { isRunning($0.pid) })

        let run = try WorkflowRun(workflow: workflow, options: options, client: client)
        let records = try await run.start().value.all
        #expect(records["listing"]?.state == .succeeded)
        #expect(records["other"]?.state == .succeeded)
        #expect(records["show"]?.output?.outputs["port"] == .string(String(options.services["byPort"]!.port)))

        try await services.stop().value
        for service in ready {
            #expect(try await waitUntilGone(service.pid), "service \(service.name) must be stopped")
        }
    }

    @Test func aServiceThatExitsEarlyFailsWithItsLastLines() async throws {
        let (_, _, services) = try prepare(
            """
            version: 1
            services:
              broken:
                run: "for i in $(seq 1 30); do echo line$i; done; echo boom >&2; exit 3"
            steps:
              s: { run: echo }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        let error = await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        #expect(error?.service == "broken")
        #expect(error?.reason == "exited with code 3 before it was ready")
        #expect(error?.location.description == "services.yaml:3:3")
        // The last 20 lines, and the error line whatever order the two streams were read in.
        let lines = error?.lastLines ?? []
        #expect(lines.count == 20 || lines.count == 21)
        #expect(lines.contains("boom") && lines.contains("line30") && !lines.contains("line5"))
        #expect(error?.description.contains("  | boom") == true)
        try await services.stop().value
    }

    @Test func aServiceNeverReadyTimesOutAndIsStopped() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-service-\(UUID())")
        let (_, _, services) = try prepare(
            """
            version: 1
            services:
              silent:
                run: "echo waiting; echo $$ > \(pidFile.path); exec sleep 30"
                ready: { http: "${{ services.silent.url }}/health" }
                timeout: 1500ms
            steps:
              s: { run: echo }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        let began = ContinuousClock.now
        let error = await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        // 1.5 s rather than less: on a loaded machine the shell may not have printed its first
        // line by then, and the last lines are part of what this test checks.
        #expect(ContinuousClock.now - began < .seconds(10))
        #expect(error?.reason.hasPrefix("was not ready after 1500ms (waiting until GET http://127.0.0.1:") == true)
        #expect(error?.lastLines == ["waiting"])
        let pid = try await pid(from: pidFile)
        #expect(pid > 0 && isRunning(pid))
        try await services.stop().value
        #expect(try await waitUntilGone(pid), "the service must be killed when it is stopped")
    }

    @Test func aServiceIgnoringSIGTERMIsKilledAfterTheGracePeriod() async throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("flow-service-\(UUID())")
        let (_, _, services) = try prepare(
            """
            version: 1
            services:
              stubborn:
                run: "trap '' TERM; echo $$ > \(pidFile.path); sleep 60"
                timeout: 300ms
            steps:
              s: { run: echo }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        let pid = try await pid(from: pidFile)
        #expect(pid > 0)
        let began = ContinuousClock.now
        try await services.stop().value
        #expect(ContinuousClock.now - began >= .seconds(2), "SIGKILL comes after the grace period")
        #expect(try await waitUntilGone(pid))
    }

    @Test func secretsInServiceOutputAreMasked() async throws {
        let (_, _, services) = try prepare(
            """
            version: 1
            services:
              leaky:
                run: "echo key=${{ secrets.KEY }}; exit 1"
            steps:
              s: { run: echo }
            """, secrets: ["KEY": "hunter2-secret"])
        let client = HTTPClient()
        defer { client.shutdown() }
        let error = await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        #expect(error?.lastLines == ["key=***"])
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func aServiceSeesTheWorkflowEnvAndItsOwnEnv() async throws {
        let (_, options, services) = try prepare(
            """
            version: 1
            env: { API: "${{ services.echo.url }}" }
            services:
              echo:
                run: "echo \\"$API $EXTRA ${{ services.echo.port }}\\"; exit 1"
                env: { EXTRA: "port-${{ services.echo.port }}" }
            steps:
              s: { run: echo }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        let error = await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        let endpoint = try #require(options.services["echo"])
        #expect(error?.lastLines == ["\(endpoint.url) port-\(endpoint.port) \(endpoint.port)"])
    }

    @Test func aCommandThatCannotStartFailsNamingIt() async throws {
        let (_, _, services) = try prepare(
            """
            version: 1
            services:
              missing: { run: [flow-no-such-command] }
            steps:
              s: { run: echo }
            """)
        let client = HTTPClient()
        defer { client.shutdown() }
        let error = await #expect(throws: ServiceError.self) { try await services.start(client: client).value }
        #expect(error?.reason.hasPrefix("could not start 'flow-no-such-command'") == true)
    }
}
