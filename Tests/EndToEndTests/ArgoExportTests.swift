import FlowSandbox
import Foundation
import Glibc
import Testing

/// `flow export argo`: the manifest's mapping, every example loading through hera's Argo models
/// (`scripts/argo-check validate`), and the exported DAG run task by task by a local stand-in for
/// Argo's controller (`scripts/argo-check run`) sending the server what a plain `flow run` sends.
/// Serialized: the examples' races and timeouts are timed, and the machine is small; the
/// comparison runs a few examples at once itself.
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
                        // Services such as scripts/https-front are named relative to the repository.
                        process.currentDirectoryURL = root
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
            "--from-file=deploy.yaml=\(file)",
            "#   kubectl create secret generic flow-deploy-app --from-literal=TOKEN=...",
            "apiVersion: \"argoproj.io/v1alpha1\"", "kind: \"Workflow\"", "  generateName: \"deploy-app-\"",
            "  namespace: \"ci\"", "        value: \"us\"",
            // `always()` runs after a failure: its need and everything upstream run whenever their needs are done.
            "          depends: \"service-api.Daemoned && (publish.Succeeded || publish.Failed || publish.Errored)\"",
            "          depends: \"service-api.Daemoned && (build.Succeeded || build.Failed || build.Errored)\"",
            "        - \"--only\"", "        - \"--service\"",
            "        - \"api=http://{{inputs.parameters.service-api}}:8080\"",
            "        - \"region={{workflow.parameters.region}}\"",
            "        limit: 2", "        retryPolicy: \"OnError\"", "          duration: \"2s\"", "          factor: 2",
            "          cap: \"10s\"",
            "              key: \"TOKEN\"", "          - name: \"FLOW_SECRET_TOKEN\"", "      daemon: true",
            "            path: \"/health\"",
        ] {
            #expect(manifest.contains(line + "\n"), "missing \(line)\n\(manifest)")
        }
        // A need's records, or its lost record when its task left no outputs (its pod lost).
        #expect(
            manifest.contains(
                "              data: \"{{=tasks['build']?.outputs?.parameters?.flow ?? '{\\\"flow-outputs\\\":1,"),
            "\(manifest)")
        // The ConfigMap's name carries a digest of the files (a version of its own).
        #expect(
            manifest.range(
                of: "#   kubectl create configmap flow-deploy-app-[0-9a-f]{10} ", options: .regularExpression)
                != nil, "\(manifest)")
        let path = try scratch.write("deploy.argo.yaml", manifest)
        let validated = try await Self.check(["validate", path])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
    }

    /// A secret the file can do without is optional in its `secretKeyRef`, so a Secret lacking the
    /// key still starts the pod; a required one is not.
    @Test func anOptionalSecretIsAnOptionalSecretKeyRef() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "tokens.yaml",
            """
            version: 1
            optional-secrets: [EXTRA]
            steps:
              call:
                run: echo "${{ secrets.TOKEN }} ${{ secrets.EXTRA || 'none' }}"
            """)
        let outcome = try await FlowProcess.run(["export", "argo", file, "--image", "registry.example/flow:1"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let manifest = outcome.stdout
        #expect(manifest.contains("key: \"EXTRA\"\n                optional: true\n"), "\(manifest)")
        // A required one is optional too: flow in the pod says it is not set (see ArgoMappingTests).
        #expect(manifest.contains("key: \"TOKEN\"\n                optional: true\n"), "\(manifest)")
        let path = try scratch.write("tokens.argo.yaml", manifest)
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
        let strict = try await Self.check(["schema"] + manifests)
        #expect(strict.exitCode == 0, "\(strict.stdout)\(strict.stderr)")
    }

    /// `argo-check schema` checks a manifest against the openAPIV3Schema of Argo v4.1.2's own
    /// Workflow and CronWorkflow CRDs (Tests/Peers/argo-crds), strictly: a key the schema does
    /// not declare, which Kubernetes would drop without a word (here a misspelt
    /// `serviceAccountName` from an overlay, and a container key), is an error naming its place.
    @Test func theSchemaCheckIsStrict() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("strict.yaml", "version: 1\nsteps:\n  a: { run: echo hi }\n")
        let overlay = try scratch.write(
            "overlay.yaml", "spec: { serviceAcountName: flow }\ncontainer: { workingDirectory: /x }\n")
        for kind in [["--kind", "Workflow"], ["--kind", "CronWorkflow", "--schedule", "0 3 * * *"]] {
            let good = try await FlowProcess.run(["export", "argo", file] + kind)
            let bad = try await FlowProcess.run(["export", "argo", file, "--overlay", overlay] + kind)
            #expect(good.exitCode == 0 && bad.exitCode == 0, "\(good.stderr)\(bad.stderr)")
            let checked = try await Self.check([
                "schema", try scratch.write("good.yaml", good.stdout), try scratch.write("bad.yaml", bad.stdout),
            ])
            #expect(checked.exitCode == 1, "\(checked.stdout)\(checked.stderr)")
            #expect(!checked.stdout.contains("good.yaml"), "\(checked.stdout)")
            for text in ["'serviceAcountName' was unexpected", "'workingDirectory' was unexpected"] {
                #expect(checked.stdout.contains(text), "\(kind): \(checked.stdout)")
            }
        }
    }

    /// Every example in workflows/ (not lib/, whose files need a caller's inputs).
    static let harnessExamples =
        ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).filter { $0.hasSuffix(".yaml") }
        .sorted()

    /// Examples that upload bytes from /dev/urandom: their chunks' digests differ per run, so
    /// those bodies compare by size.
    static let randomPayloads: Set<String> = ["build-and-publish.yaml", "demo.yaml"]

    /// How many examples are compared at once: most of a comparison is waiting (on processes,
    /// on the examples' own delays), so a few at a time keep the suite short.
    static let width = 4

    /// The exported DAG of every example, run by the harness (pods at once up to each DAG's
    /// `parallelism`), sends the sandbox what a plain run sends: the same sequences of requests
    /// (see `ServerLog`) with the same methods, paths, statuses, body sizes, `Content-Range` /
    /// `Upload-Offset` / `Range` headers and bodies, once server-made ids, ports, multipart
    /// boundaries and temporary paths are normalised.
    @Test func everyExampleSendsThroughItsDAGWhatAPlainRunSends() async throws {
        try await Self.forEachExample(Self.compare)
    }

    /// Every example again, with the pod of its first step lost (`argo-check run --lose-pod`:
    /// deleted or evicted once it started; every retry of it too): the step's runner died, so
    /// the run fails, as `flow run` exits non-zero when its process dies, and the Workflow's
    /// phase is `Failed` — never left Running. An `always()` step after the lost step runs at
    /// once and reads it as failed (its need's lost record, see ArgoLostPodTests); the Workflow's
    /// `activeDeadlineSeconds` (here `--active-deadline 15`) stays a backstop. Every example runs here
    /// (the files they read and pass come from volumes of the overlay, see `examplesOverlay`).
    @Test func everyExampleFailsOnArgoWhenAPodIsLost() async throws {
        try await Self.forEachExample(Self.loseFirstPod)
    }

    /// Runs `body` for every example the harness runs, `width` at a time.
    static func forEachExample(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let names = Self.harnessExamples
        #expect(names.count >= 14)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            while next < min(Self.width, names.count) {
                let name = names[next]
                group.addTask { try await body(name) }
                next += 1
            }
            while try await group.next() != nil {
                guard next < names.count else { continue }
                let name = names[next]
                group.addTask { try await body(name) }
                next += 1
            }
        }
    }

    /// Exports example `name`, runs its DAG with its first step's pod lost and expects a
    /// Workflow that failed, with that task Errored.
    static func loseFirstPod(_ name: String) async throws {
        let scratch = try Scratch()
        let file = examples.appendingPathComponent(name).path
        let server = try await sandboxBeforeFreePorts(1)
        defer { Task { await server.stop() } }
        defer { forgetPartialDownloads(of: file) }
        // The first step's task, whose pod is lost (read from the manifest before it runs).
        var first = ""
        let run = try await runExportedDAG(
            file, port: server.port, name: name, scratch: scratch, exportOptions: ["--active-deadline", "15"]
        ) { manifest in
            first = try #require(
                ArgoMappingTests.taskNames(manifest).first(where: { !$0.hasPrefix("service-") }),
                "\(name): no step task in\n\(manifest)")
            return ["--lose-pod", first]
        }
        #expect(run.exitCode == 1, "\(name): \(run.stdout)\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("\"phase\": \"Failed\""), "\(name): \(run.stdout)")
        #expect(!run.stdout.contains("\"hung\""), "\(name): \(run.stdout)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let nodes = report?["nodes"] as? [String: String] ?? [:]
        #expect(
            nodes.contains { ($0.key == first || $0.key.hasPrefix(first + "(")) && $0.value == "Error" },
            "\(name): \(first) in \(nodes)")
    }

    /// Runs example `name` plainly and as its exported DAG, each against a sandbox of its own
    /// recording bodies, and compares what the two sandboxes saw.
    static func compare(_ name: String) async throws {
        let scratch = try Scratch()
        let file = examples.appendingPathComponent(name).path
        let random = randomPayloads.contains(name)
        let plainServer = try await Sandbox.start(SandboxConfiguration(recordsBodies: true))
        defer { Task { await plainServer.stop() } }
        forgetPartialDownloads(of: file)
        let plain = try await FlowProcess.run(
            ["run", file, "--service", "sandbox=\(plainServer.baseURL)"],
            environment: ["FLOW_SECRET_PASSWORD": "s3cret"])
        #expect(plain.exitCode == 0, "\(name): \(plain.stdout)\(plain.stderr)")
        let plainLog = ServerLog(plainServer.events(), ports: [plainServer.port], randomPayload: random)

        // The exported services listen on --service-port and up: the sandbox's port, then free ones.
        // A port found free can be taken before the service binds it (by any process's outgoing
        // connection): then the DAG runs again on fresh ports, as flow restarts such a service.
        var dagServer = try await sandboxBeforeFreePorts(1)
        var run = try await runExportedDAG(file, port: dagServer.port, name: name, scratch: scratch)
        for _ in 0..<3 where run.exitCode != 0 && Self.failedToBind(run.stderr) {
            await dagServer.stop()
            dagServer = try await sandboxBeforeFreePorts(1)
            run = try await runExportedDAG(file, port: dagServer.port, name: name, scratch: scratch)
        }
        defer { Task { [dagServer] in await dagServer.stop() } }
        #expect(run.exitCode == 0, "\(name): \(run.stdout)\(run.stderr.suffix(4000))")
        // The Workflow's phase is the plain run's outcome (exit 0).
        #expect(run.stdout.contains("\"phase\": \"Succeeded\""), "\(name): \(run.stdout)")
        let dagLog = ServerLog(dagServer.events(), ports: [dagServer.port], randomPayload: random)
        #expect(plainLog.count > 0, "\(name)")
        #expect(dagLog == plainLog, "\(name):\n\(plainLog.differences(from: dagLog))\n\(run.stderr.suffix(4000))")
    }

    /// Removes the partial files that `resume: true` downloads of the examples keep in their fixed
    /// folders: a pod the lost-pod test kills leaves one there (the harness's pods share the host's
    /// /tmp), and a plain run after it would continue it with a `Range` request the DAG never sends.
    /// Only the folders the example at `file` names: the examples run `width` at a time, and
    /// clearing another example's folder removed its partial file between two attempts, so its
    /// plain run started again from zero where its DAG resumed (a `200` against a `206`).
    static func forgetPartialDownloads(of file: String) {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        for folder in ["/tmp/flow-download-example", "/tmp/flow-https-example/out"] where text.contains(folder) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.contains(".flow-partial") {
                try? FileManager.default.removeItem(atPath: folder + "/" + name)
            }
        }
    }

    /// Exports `file` with its services from `port` up (and `exportOptions`) and runs its DAG
    /// through the harness, with the options `runOptions` gives for the manifest's text added.
    static func runExportedDAG(
        _ file: String, port: Int, name: String, scratch: Scratch, exportOptions: [String] = [],
        runOptions: (_ manifest: String) throws -> [String] = { _ in [] }
    ) async throws -> FlowProcess.Outcome {
        let (overlay, mounts) = try examplesOverlay(scratch)
        let export = try await FlowProcess.run(
            ["export", "argo", file, "--service-port", String(port), "--overlay", overlay] + exportOptions)
        #expect(export.exitCode == 0, "\(name): \(export.stderr)")
        let options = try runOptions(export.stdout)
        let manifest = try scratch.write("manifest.yaml", export.stdout)
        return try await check(
            [
                "run", manifest, "--flow", FlowProcess.binary.path, "--daemon", "service-sandbox=127.0.0.1",
                "--secret", "PASSWORD=s3cret",
            ] + options + mounts)
    }

    /// The overlay every example is exported with, and the harness's `--mount`s for its volumes.
    /// The ConfigMap holds the workflow's own files only and each pod has its own /tmp (the export
    /// warns about both): the files the examples read beside them come from a volume mounted in
    /// every pod, each at its place in /flow by subPath (the scripts their services start and what
    /// those read, run from the repository's root by a plain run, too), and the folder the HTTPS example's steps
    /// and service pass files in is a volume every pod shares, as a user would give them with
    /// --overlay.
    static func examplesOverlay(_ scratch: Scratch) throws -> (overlay: String, mounts: [String]) {
        let shared = "/tmp/flow-https-example"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        let overlay = try scratch.write(
            "overlay.yaml",
            """
            spec:
              volumes:
                - { name: workflow-folder, persistentVolumeClaim: { claimName: flow-examples } }
                - { name: repository, persistentVolumeClaim: { claimName: flow-repository } }
                - { name: shared, persistentVolumeClaim: { claimName: flow-shared } }
            container:
              volumeMounts:
                - { name: workflow-folder, mountPath: /flow/README.md, subPath: README.md, readOnly: true }
                - { name: workflow-folder, mountPath: /flow/for-each-data, subPath: for-each-data, readOnly: true }
                - { name: repository, mountPath: /flow/scripts, subPath: scripts, readOnly: true }
                - { name: repository, mountPath: /flow/Tests/Peers, subPath: Tests/Peers, readOnly: true }
                - { name: shared, mountPath: \(shared) }
            """)
        return (
            overlay,
            [
                "--mount", "workflow=\(examples.path)", "--mount", "workflow-folder=\(examples.path)",
                "--mount", "repository=\(root.path)", "--mount", "shared=\(shared)",
            ]
        )
    }

    /// Whether a service of the run could not bind its port (python's and flow sandbox's words).
    static func failedToBind(_ output: String) -> Bool {
        let text = output.lowercased()
        return text.contains("address already in use") || text.contains("errno 98")
    }

    /// A sandbox whose next `count` ports are free now (for the services exported after it).
    static func sandboxBeforeFreePorts(_ count: Int) async throws -> Sandbox {
        for _ in 0..<50 {
            let sandbox = try await Sandbox.start(SandboxConfiguration(recordsBodies: true))
            if (1...count).allSatisfy({ portIsFree(sandbox.port + $0) }) { return sandbox }
            await sandbox.stop()
        }
        throw CocoaError(.featureUnsupported)
    }

    /// Whether a TCP port on 127.0.0.1 can be bound now.
    static func portIsFree(_ port: Int) -> Bool {
        guard port < 65536 else { return false }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// A `for-each` step's `concurrency` holds per step: its own DAG template's `parallelism`
    /// bounds its item pods (the harness starts up to that many at once), and the server never
    /// held more of its requests at once.
    @Test func aForEachStepsConcurrencyBoundsItsPods() async throws {
        let scratch = try Scratch()
        let file = Self.examples.appendingPathComponent("for-each.yaml").path
        let server = try await Sandbox.start()
        defer { Task { await server.stop() } }
        let (overlay, mounts) = try Self.examplesOverlay(scratch)
        let export = try await FlowProcess.run([
            "export", "argo", file, "--service-port", String(server.port), "--overlay", overlay,
        ])
        #expect(export.exitCode == 0, "\(export.stderr)")
        #expect(!export.stderr.contains("concurrency"), "\(export.stderr)")
        for line in [
            "  - name: \"each-fetch\"", "    parallelism: 4", "      failFast: true",
            // Its items are counted in the run: each item's record goes to the artifact repository.
            "              key: \"{{workflow.name}}/flow-records/fetch/{{inputs.parameters.index}}.json\"",
            "            continueOn:",
            "        withParam: \"{{inputs.parameters.items}}\"",
        ] {
            #expect(export.stdout.contains(line + "\n"), "missing \(line)\n\(export.stdout)")
        }
        let manifest = try scratch.write("manifest.yaml", export.stdout)
        let run = try await Self.check(
            [
                "run", manifest, "--flow", FlowProcess.binary.path, "--daemon", "service-sandbox=127.0.0.1",
            ] + mounts)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let peaks = report?["peaks"] as? [String: Int]
        #expect(peaks?["each-fetch"] == 4, "\(run.stdout)")
        let held = try await FlowProcess.run([
            "run",
            try scratch.write(
                "held.yaml",
                """
                version: 1
                steps:
                  held:
                    http: { url: "\(server.baseURL)/held/example-fetch" }
                    expect: { assert: ["result.json.total == 12", "result.json.max <= 4"] }
                """),
        ])
        #expect(held.exitCode == 0, "\(held.stdout)\(held.stderr)")
    }

    /// Argo does not stop starting a step's items after one failed: `dag.failFast` only decides the
    /// DAG's phase (dag.go assessDAGPhase), and the template-level `failFast` that stops new pods
    /// (operator.go checkParallelism) would leave the items never started as children that do not
    /// exist, so the workflow would stay Running (assessDAGPhase). Every item runs and the step fails.
    @Test func failFastStopsStartingItems() async throws {
        let scratch = try Scratch()
        let server = try await Sandbox.start()
        defer { Task { await server.stop() } }
        var manifests: [Bool: String] = [:]
        for failFast in [true, false] {
            let file = try scratch.write(
                "fail-\(failFast).yaml",
                """
                version: 1
                steps:
                  items:
                    for-each: ${{ range(0, 6) }}
                    fail-fast: \(failFast)\(failFast ? "\n    concurrency: 1" : "")
                    http: { url: "\(server.baseURL)/held/fail-\(failFast)/1${{ item == 1 && '/fail' || '' }}" }
                """)
            let export = try await FlowProcess.run(["export", "argo", file])
            #expect(export.exitCode == 0, "\(export.stderr)")
            #expect(export.stdout.contains("      failFast: \(failFast)\n"), "\(export.stdout)")
            // Without concurrency and fail-fast, the step needs no DAG template of its own.
            #expect(export.stdout.contains("- name: \"each-items\"") == failFast, "\(export.stdout)")
            manifests[failFast] = try scratch.write("fail-\(failFast).argo.yaml", export.stdout)
        }
        let validated = try await Self.check(["validate"] + manifests.values.sorted())
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)")
        for (failFast, expected) in [(true, 6), (false, 6)] {
            let run = try await Self.check([
                "run", manifests[failFast] ?? "", "--flow", FlowProcess.binary.path, "--mount",
                "workflow=\(scratch.folder.path)",
            ])
            #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
            // With a DAG of its own the step's task succeeds (so its outputs exist) and its
            // items' phase is the DAG's output `status`, which flow-outcome reads.
            #expect(run.stdout.contains("\"flow-outcome\": \"Failed\""), "\(run.stdout)")
            #expect(run.stdout.contains("\"phase\": \"Failed\""), "\(run.stdout)")
            #expect(
                run.stdout.contains(failFast ? "\"status\": \"Failed\"" : "\"items\": \"Failed\""), "\(run.stdout)")
            let seen = server.events().filter { $0.path.hasPrefix("/held/fail-\(failFast)/") }
            #expect(seen.count == expected, "fail-fast \(failFast): \(seen.map(\.path))")
        }
    }
}
