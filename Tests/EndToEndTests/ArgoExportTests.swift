import FlowSandbox
import Foundation
import Testing

/// `flow export argo`: the manifest's mapping, every example loading through hera's Argo models
/// (`scripts/argo-check validate`), and the exported DAG run task by task by a local stand-in for
/// Argo's controller (`scripts/argo-check run`) sending the server what a plain `flow run` sends.
@Suite(.serialized) struct ArgoExportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let examples = root.appendingPathComponent("workflows")
    static let checker = root.appendingPathComponent("scripts/argo-check").path

    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-argo-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func write(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }
    }

    /// Runs scripts/argo-check with `arguments`, off the concurrency pool.
    static func check(_ arguments: [String]) async throws -> FlowProcess.Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let process = Process()
                        process.executableURL = URL(fileURLWithPath: checker)
                        process.arguments = arguments
                        let stdout = Pipe()
                        let stderr = Pipe()
                        process.standardOutput = stdout
                        process.standardError = stderr
                        try process.run()
                        let errData = LockedData()
                        let reader = Thread { errData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
                        reader.start()
                        let out = stdout.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        while !errData.done { usleep(1000) }
                        return FlowProcess.Outcome(
                            exitCode: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                            stderr: String(decoding: errData.data, as: UTF8.self))
                    })
            }.start()
        }
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var value = Data()
        private var finished = false
        func set(_ data: Data) {
            lock.withLock {
                value = data
                finished = true
            }
        }
        var done: Bool { lock.withLock { finished } }
        var data: Data { lock.withLock { value } }
    }

    @Test func theManifestMapsNeedsIfRetryTimeoutSecretsInputsAndServices() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "deploy.yaml",
            """
            version: 1
            name: Deploy App
            inputs:
              region: { type: string, default: eu }
            services:
              api:
                run: ["${{ flow.executable }}", sandbox, --port, "${{ services.api.port }}"]
                ready: { http: "${{ services.api.url }}/health" }
            defaults:
              http: { base-url: "${{ services.api.url }}" }
            steps:
              build:
                http: { url: "/echo?region=${{ inputs.region }}", headers: { Authorization: "Bearer ${{ secrets.TOKEN }}" } }
                retry: { attempts: 3, delay: 2s, backoff: exponential, max-delay: 10s }
                timeout: 90s
                outputs: { id: "${{ result.json.query.region }}" }
              publish:
                needs: build
                http: { url: "/echo?id=${{ steps.build.outputs.id }}" }
              notify:
                needs: publish
                if: ${{ always() }}
                run: echo done
            """)
        let outcome = try await FlowProcess.run([
            "export", "argo", file, "--image", "registry.example/flow:1", "--namespace", "ci", "--input", "region=us",
        ])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let manifest = outcome.stdout
        for line in [
            "#   kubectl create configmap flow-deploy-app --from-file=deploy.yaml=\(file)",
            "#   kubectl create secret generic flow-deploy-app --from-literal=TOKEN=...",
            "apiVersion: \"argoproj.io/v1alpha1\"", "kind: \"Workflow\"", "  generateName: \"deploy-app-\"",
            "  namespace: \"ci\"", "        value: \"us\"",
            // `always()` runs after a failure: its need and everything upstream run whenever their needs are done.
            "          depends: \"service-api.Daemoned && (publish.Succeeded || publish.Failed)\"",
            "          depends: \"service-api.Daemoned && (build.Succeeded || build.Failed)\"",
            "              data: \"{{tasks.build.outputs.parameters.flow}}\"",
            "        - \"--only\"", "        - \"--service\"",
            "        - \"api=http://{{inputs.parameters.service-api}}:8080\"",
            "        - \"region={{workflow.parameters.region}}\"",
            "        limit: 2", "        retryPolicy: \"OnError\"", "          duration: \"2s\"", "          factor: 2",
            "          maxDuration: \"10s\"", "      activeDeadlineSeconds: 120",
            "              key: \"TOKEN\"", "          - name: \"FLOW_SECRET_TOKEN\"", "      daemon: true",
            "            path: \"/health\"",
        ] {
            #expect(manifest.contains(line + "\n"), "missing \(line)\n\(manifest)")
        }
        #expect(
            outcome.stderr.contains("warning: service 'api' runs as the daemon task service-api"), "\(outcome.stderr)")
        let path = try scratch.write("deploy.argo.yaml", manifest)
        let validated = try await Self.check(["validate", path])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
    }

    @Test func aServiceReadingAnInputCannotBeExported() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "bad.yaml",
            """
            version: 1
            inputs:
              port: { type: number, default: 9 }
            services:
              api: { run: "serve --port ${{ inputs.port }}" }
            steps:
              one: { run: echo hi }
            """)
        let outcome = try await FlowProcess.run(["export", "argo", file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("service 'api' reads ${{ inputs.port }}"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func everyExampleExportsToAManifestHeraLoads() async throws {
        let scratch = try Scratch()
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path).filter {
            $0.hasSuffix(".yaml")
        }
        .sorted()
        var manifests: [String] = []
        for name in names {
            let outcome = try await FlowProcess.run(["export", "argo", Self.examples.appendingPathComponent(name).path])
            #expect(outcome.exitCode == 0, "\(name): \(outcome.stderr)")
            manifests.append(try scratch.write(name, outcome.stdout))
        }
        #expect(manifests.count >= 13)
        let validated = try await Self.check(["validate"] + manifests)
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
    }

    /// Examples whose requests do not carry values a server makes up (upload ids), so the two
    /// runs' request lines compare as they are.
    static let harnessExamples = [
        "for-each.yaml", "two-parallel-requests.yaml", "ordered-import.yaml", "race-then-all.yaml",
        "poll-and-paginate.yaml", "uses.yaml", "retry-and-timeouts.yaml",
    ]

    @Test(arguments: harnessExamples) func theExportedDAGSendsWhatAPlainRunSends(_ name: String) async throws {
        let scratch = try Scratch()
        let file = Self.examples.appendingPathComponent(name).path
        let plainServer = try await Sandbox.start()
        defer { Task { await plainServer.stop() } }
        let plain = try await FlowProcess.run(
            ["run", file, "--service", "sandbox=\(plainServer.baseURL)"],
            environment: ["FLOW_SECRET_PASSWORD": "s3cret"])
        #expect(plain.exitCode == 0, "\(plain.stdout)\(plain.stderr)")

        let dagServer = try await Sandbox.start()
        defer { Task { await dagServer.stop() } }
        let export = try await FlowProcess.run(["export", "argo", file, "--service-port", String(dagServer.port)])
        #expect(export.exitCode == 0, "\(export.stderr)")
        let manifest = try scratch.write("manifest.yaml", export.stdout)
        let run = try await Self.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(Self.examples.path)",
            "--daemon", "service-sandbox=127.0.0.1", "--secret", "PASSWORD=s3cret",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let plainRequests = plainServer.events().map { "\($0.method) \($0.path)" }.sorted()
        let dagRequests = dagServer.events().map { "\($0.method) \($0.path)" }.sorted()
        #expect(!plainRequests.isEmpty)
        #expect(dagRequests == plainRequests, "\(run.stderr)")
    }
}
