import Foundation
import Testing

/// `flow export argo` read against Argo's own code (issue 28): retries as Argo's backoff means
/// them, names Argo accepts, the workflow's files laid out as `uses` expects, a ConfigMap per
/// version of the files, services that do not take the steps' slots, and warnings for what the
/// pods cannot share. Manifests are checked with `scripts/argo-check validate`; behaviour runs
/// through `scripts/argo-check run`.
@Suite(.serialized) struct ArgoMappingTests {
    typealias Scratch = ArgoExportTests.Scratch

    static func export(_ file: String, _ arguments: [String] = []) async throws -> FlowProcess.Outcome {
        try await FlowProcess.run(["export", "argo", file] + arguments)
    }

    /// Exports `text` as `name` in `scratch`, expects exit 0 and a manifest Argo's models load.
    static func exported(_ scratch: Scratch, _ name: String, _ text: String, _ arguments: [String] = []) async throws
        -> FlowProcess.Outcome
    {
        let file = try scratch.write(name, text)
        let outcome = try await export(file, arguments)
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let manifest = try scratch.write(name + ".argo.yaml", outcome.stdout)
        let validated = try await ArgoExportTests.check(["validate", manifest])
        #expect(validated.exitCode == 0, "\(validated.stdout)\(validated.stderr)\n\(outcome.stdout)")
        return outcome
    }

    /// The names of the entry DAG's tasks in the manifest (a name followed by its template).
    static func taskNames(_ manifest: String) -> [String] {
        // The entry template is the first: its tasks end where the next template begins.
        var entry = Substring(manifest)
        if let start = manifest.range(of: "\n    - name: \"flow\"\n") {
            entry = manifest[start.upperBound...]
            if let end = entry.range(of: "\n    - name: ") { entry = entry[..<end.lowerBound] }
        }
        let lines = entry.split(separator: "\n", omittingEmptySubsequences: false)
        let prefix = "          - name: \""
        return zip(lines, lines.dropFirst()).compactMap { line, next in
            guard line.hasPrefix(prefix), next.hasPrefix("            template: ") else { return nil }
            return String(line.dropFirst(prefix.count).dropLast())
        }
    }

    // MARK: - Defect 4: retries

    /// `max-delay` caps each wait (`backoff.cap`), never the whole window (`maxDuration`, which
    /// also cuts the retried pod's deadline); `constant` has no factor; `linear` maps exactly up
    /// to 4 attempts (its waits d, 2d, 3d are exponential ones capped at 3d) and beyond is refused;
    /// `jitter` is named in a warning.
    @Test func retriesMapToWhatArgosBackoffMeans() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "retry.yaml",
            """
            version: 1
            steps:
              exponential:
                run: echo one
                retry: { attempts: 3, delay: 2s, backoff: exponential, max-delay: 10s }
              constant:
                run: echo two
                retry: { attempts: 3, delay: 2s, backoff: constant }
              linear:
                run: echo three
                retry: { attempts: 4, delay: 1s, backoff: linear, jitter: full }
            """)
        let manifest = outcome.stdout
        #expect(!manifest.contains("maxDuration"), "\(manifest)")
        for block in [
            "      retryStrategy:\n        limit: 2\n        retryPolicy: \"OnError\"\n        backoff:\n"
                + "          duration: \"2s\"\n          factor: 2\n          cap: \"10s\"\n",
            "      retryStrategy:\n        limit: 2\n        retryPolicy: \"OnError\"\n        backoff:\n"
                + "          duration: \"2s\"\n      container:",
            "      retryStrategy:\n        limit: 3\n        retryPolicy: \"OnError\"\n        backoff:\n"
                + "          duration: \"1s\"\n          factor: 2\n          cap: \"3s\"\n",
        ] {
            #expect(manifest.contains(block), "missing\n\(block)\n\(manifest)")
        }
        #expect(outcome.stderr.contains("step 'linear': Argo has no retry jitter"), "\(outcome.stderr)")

        let refused = try await Self.export(
            try scratch.write(
                "linear.yaml",
                """
                version: 1
                steps:
                  slow:
                    run: echo hi
                    retry: { attempts: 5, delay: 1s, backoff: linear }
                """))
        #expect(refused.exitCode == 2)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderr.contains("linear.yaml:5:5: step 'slow': retry backoff linear waits delay × n"),
            "\(refused.stderr)")
    }

    // MARK: - Defect 7: names, services, working folder, files

    /// Step ids that meet as Argo names (`Build`/`build`, `a_b`/`a-b`, `service-x` beside service
    /// `x`, `fan-items` beside a step fanned out at run time `fan`) get names of
    /// their own that Argo accepts (`_build` too, which loses its `_`), a warning names them, and
    /// every task runs in the harness.
    @Test func stepIdsThatMeetAsArgoNamesGetNamesOfTheirOwn() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "names.yaml",
            """
            version: 1
            services:
              x: { run: ["python3", "-m", "http.server", "--bind", "127.0.0.1", "${{ services.x.port }}"] }
            steps:
              Build: { run: echo Build }
              build: { run: echo build }
              a_b: { run: echo a_b }
              a-b: { run: echo a-b }
              service-x: { run: echo service-x }
              list:
                run: echo '["p", "q"]'
                outputs: { names: "${{ fromJSON(result.stdout) }}" }
              fan:
                needs: list
                for-each: ${{ steps.list.outputs.names }}
                run: echo ${{ item }}
              fan-items: { run: echo fan-items }
              _build: { run: echo _build }
            """, ["--service-port", String(try freeLoopbackPort())])
        let names = Self.taskNames(outcome.stdout)
        #expect(Set(names).count == names.count, "\(names)")
        for name in names {
            #expect(name.range(of: "^[a-z][-a-z0-9]*$", options: .regularExpression) != nil, "\(name)")
        }
        for id in ["Build", "_build", "a_b", "service-x", "fan-items"] {
            #expect(outcome.stderr.contains("step '\(id)' meets"), "\(id): \(outcome.stderr)")
        }
        #expect(names.contains("fan-items") && names.contains("service-x"), "\(names)")
        // The service bound to the loopback address listens on every address in its pod.
        #expect(outcome.stdout.contains("        - \"0.0.0.0\"\n"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("service 'x': '127.0.0.1' names the loopback address"), "\(outcome.stderr)")
        let manifest = scratch.path("names.yaml.argo.yaml")
        let run = try await ArgoExportTests.check([
            "run", manifest, "--flow", FlowProcess.binary.path, "--mount", "workflow=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let phases = report?["phases"] as? [String: String] ?? [:]
        for name in names {
            #expect(phases[name] == "Succeeded" || phases[name] == "Daemoned", "\(name): \(phases)")
        }
        #expect(phases.count == names.count, "\(phases)")
    }

    /// A service's daemon task keeps its place in the DAG's `parallelism` for the whole run, so
    /// the entry DAG has one slot per service on top of `concurrency` (else `concurrency: 1` with
    /// a service starts no step); cleanups after a failure also run after a pod error
    /// (`.Errored`); the pods work in `/flow`, a writable `emptyDir` with the workflow's files
    /// mounted into it; a service that never gets ready fails after its `ready` timeout.
    @Test func servicesKeepTheirOwnSlotsAndCleanupsRunAfterPodErrors() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "one.yaml",
            """
            version: 1
            concurrency: 1
            services:
              web:
                run: ["python3", "-m", "http.server", "${{ services.web.port }}"]
                timeout: 20s
            steps:
              write:
                run: echo hi > note.txt
              check:
                needs: write
                run: echo checked
              cleanup:
                needs: check
                if: ${{ always() }}
                run: rm -f note.txt
            """, ["--service-port", String(try freeLoopbackPort())])
        let manifest = outcome.stdout
        for line in [
            "      parallelism: 2",
            "            depends: \"service-web.Daemoned && (write.Succeeded || write.Failed || write.Errored)\"",
            "            depends: \"service-web.Daemoned && (check.Succeeded || check.Failed || check.Errored)\"",
            "        workingDir: \"/flow\"", "          - name: \"workdir\"\n            mountPath: \"/flow\"",
            "            mountPath: \"/flow/one.yaml\"\n            subPath: \"one.yaml\"\n            readOnly: true",
            "    - name: \"workdir\"\n      emptyDir: {}", "          failureThreshold: 20",
        ] {
            #expect(manifest.contains(line + "\n"), "missing \(line)\n\(manifest)")
        }
        let run = try await ArgoExportTests.check([
            "run", scratch.path("one.yaml.argo.yaml"), "--flow", FlowProcess.binary.path, "--mount",
            "workflow=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("\"cleanup\": \"Succeeded\""), "\(run.stdout)")
    }

    /// Files a step reads that the ConfigMap does not hold, local scripts and `/tmp` paths
    /// (each pod has its own) are named in warnings, per step.
    @Test func filesThePodsDoNotShareAreNamed() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "files.yaml",
            """
            version: 1
            steps:
              make:
                run: ./build.sh && cp out.bin /tmp/shared/out.bin
              send:
                needs: make
                upload: { file: /tmp/shared/out.bin, url: "http://127.0.0.1:9/upload", protocol: tus }
              form:
                http:
                  method: POST
                  url: http://127.0.0.1:9/form
                  multipart: { doc: { file: docs/readme.md } }
            """)
        for text in [
            "step 'make' reads the script's './build.sh'", "step 'make' uses the script's '/tmp/shared/out.bin'",
            "step 'send' uses upload.file '/tmp/shared/out.bin'", "step 'form' reads multipart file 'docs/readme.md'",
        ] {
            #expect(outcome.stderr.contains(text), "missing \(text)\n\(outcome.stderr)")
        }
    }

    // MARK: - Defect 6: files outside the folder, keys

    /// A workflow in `flows/` calling `../shared/common.yaml`, `lib/a.yaml` and `lib_a.yaml`: the
    /// ConfigMap's keys differ, the files keep their layout under `/flow` (so `uses` finds them in
    /// the pod), and the harness runs every task. An absolute `uses` path is refused.
    @Test func usesFilesKeepTheirLayoutUnderOneRootWithKeysThatCannotCollide() async throws {
        let scratch = try Scratch()
        for folder in ["flows/lib", "shared"] {
            try FileManager.default.createDirectory(
                atPath: scratch.path(folder), withIntermediateDirectories: true)
        }
        let callee = "version: 1\nsteps:\n  hello: { run: echo called }\n"
        _ = try scratch.write("shared/common.yaml", callee)
        _ = try scratch.write("flows/lib/a.yaml", callee)
        _ = try scratch.write("flows/lib_a.yaml", callee)
        let outcome = try await Self.exported(
            scratch, "flows/main.yaml",
            """
            version: 1
            steps:
              common: { uses: ../shared/common.yaml }
              nested: { uses: lib/a.yaml }
              flat: { uses: lib_a.yaml }
            """)
        let manifest = outcome.stdout
        for line in [
            "--from-file=flows_-main.yaml=", "--from-file=shared_-common.yaml=",
            "--from-file=flows_-lib_-a.yaml=", "--from-file=flows_-lib__a.yaml=",
            "        - \"/flow/flows/main.yaml\"", "            mountPath: \"/flow/shared/common.yaml\"",
            "            mountPath: \"/flow/flows/lib/a.yaml\"", "            mountPath: \"/flow/flows/lib_a.yaml\"",
        ] {
            #expect(manifest.contains(line), "missing \(line)\n\(manifest)")
        }
        let run = try await ArgoExportTests.check([
            "run", scratch.path("flows/main.yaml.argo.yaml"), "--flow", FlowProcess.binary.path, "--mount",
            "workflow=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")

        _ = try scratch.write(
            "flows/absolute.yaml", "version: 1\nsteps:\n  x: { uses: \(scratch.path("shared/common.yaml")) }\n")
        let refused = try await Self.export(scratch.path("flows/absolute.yaml"))
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.contains("step 'x' uses the absolute path"), "\(refused.stderr)")
    }

    // MARK: - Defect 8: a ConfigMap per version

    /// The default ConfigMap name ends in a digest of the files: a changed file is another
    /// ConfigMap, so a Workflow already submitted keeps reading the version it was exported with.
    @Test func eachVersionOfTheFilesIsAConfigMapOfItsOwn() async throws {
        let scratch = try Scratch()
        let file = try scratch.write("v.yaml", "version: 1\nsteps:\n  a: { run: echo one }\n")
        let first = try await Self.export(file)
        let again = try await Self.export(file)
        _ = try scratch.write("v.yaml", "version: 1\nsteps:\n  a: { run: echo two }\n")
        let changed = try await Self.export(file)
        func name(_ outcome: FlowProcess.Outcome) -> String? {
            outcome.stdout.range(of: "kubectl create configmap flow-v-[0-9a-f]{10} ", options: .regularExpression)
                .map { String(outcome.stdout[$0]) }
        }
        #expect(name(first) != nil, "\(first.stdout)")
        #expect(name(first) == name(again))
        #expect(name(first) != name(changed))
        #expect(changed.stdout.contains("        name: \"\(name(changed)?.split(separator: " ")[3] ?? "")\"\n"))
    }

    // MARK: - Defect 9

    /// No pod deadline (it would count the image pull: flow enforces the step's timeout from
    /// its start), and `concurrency: ${{ inputs.n }}` is computed from `--input` (with a warning
    /// that `argo submit -p` does not change it), not left at 16.
    @Test func noPodDeadlineAndConcurrencyFromTheInputs() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "settings.yaml",
            """
            version: 1
            inputs:
              n: { type: number, default: 2 }
            concurrency: ${{ inputs.n }}
            steps:
              slow: { run: sleep 1, timeout: 90s }
            """, ["--input", "n=3"])
        // Only the Workflow's backstop (see ArgoHarnessConformanceTests): the step's 90 s, the
        // slack for its pod and for flow-outcome's.
        #expect(outcome.stdout.components(separatedBy: "activeDeadlineSeconds").count == 2, "\(outcome.stdout)")
        #expect(outcome.stdout.contains("\n  activeDeadlineSeconds: 210\n"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("      parallelism: 3\n"), "\(outcome.stdout)")
        #expect(outcome.stderr.contains("argo submit -p` does not change it"), "\(outcome.stderr)")
    }

    /// Each template gets only the secrets its step reads, every `secretKeyRef` is optional so
    /// a Secret without a key cannot leave a pod Pending forever, and the one step that needs the
    /// missing secret fails saying so while the others run; a `type: file` input (a path on
    /// the exporting machine) is refused.
    @Test func eachPodGetsOnlyItsSecretsAndAMissingOneFailsItsStepClearly() async throws {
        let scratch = try Scratch()
        let outcome = try await Self.exported(
            scratch, "secrets.yaml",
            """
            version: 1
            steps:
              call: { run: "echo ${{ secrets.TOKEN }}" }
              login: { run: "echo ${{ secrets.PASSWORD }}" }
              other: { run: echo other }
            """)
        let templates = outcome.stdout.components(separatedBy: "\n    - name: ")
        func template(_ name: String) -> String { templates.first { $0.hasPrefix("\"\(name)\"") } ?? "" }
        #expect(template("step-call").contains("FLOW_SECRET_TOKEN"), "\(outcome.stdout)")
        #expect(!template("step-call").contains("FLOW_SECRET_PASSWORD"), "\(outcome.stdout)")
        #expect(!template("step-other").contains("FLOW_SECRET_"), "\(outcome.stdout)")
        #expect(
            outcome.stdout.components(separatedBy: "secretKeyRef:").count - 1
                == outcome.stdout.components(separatedBy: "optional: true").count - 1)
        let run = try await ArgoExportTests.check([
            "run", scratch.path("secrets.yaml.argo.yaml"), "--flow", FlowProcess.binary.path, "--mount",
            "workflow=\(scratch.folder.path)", "--secret", "PASSWORD=s3cret",
        ])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr.suffix(3000))")
        for (task, phase) in [("call", "Failed"), ("login", "Succeeded"), ("other", "Succeeded")] {
            #expect(run.stdout.contains("\"\(task)\": \"\(phase)\""), "\(task): \(run.stdout)")
        }
        #expect(run.stderr.contains("secret 'TOKEN' is not set"), "\(run.stderr.suffix(3000))")
        #expect(!run.stderr.contains("s3cret"))

        let file = try scratch.write(
            "file-input.yaml", "version: 1\ninputs:\n  data: { type: file }\nsteps:\n  a: { run: echo hi }\n")
        let refused = try await Self.export(file, ["--input", "data=/etc/hostname"])
        #expect(refused.exitCode == 2)
        #expect(refused.stderr.contains("input 'data' is type: file"), "\(refused.stderr)")
    }

    // MARK: - What an Argo user sets

    /// One overlay file sets the service account, labels and annotations, resources, node
    /// selector and tolerations, image pull policy and secrets, a Pod Security `restricted`
    /// security context with a read-only root file system (every path flow writes, `/flow` and
    /// `/tmp/flow`, is an `emptyDir`), pod GC and TTL, a PVC in every pod and a service's own image;
    /// the manifest still loads in Argo's models and runs in the harness. `--kind
    /// WorkflowTemplate` and `--kind CronWorkflow --schedule` make those kinds.
    @Test func anOverlaySetsWhatAnArgoUserExpectsAndKindsAreMade() async throws {
        let scratch = try Scratch()
        let overlay = try scratch.write(
            "overlay.yaml",
            """
            metadata:
              labels: { team: payments }
              annotations: { owner: "ops@example.com" }
            spec:
              serviceAccountName: flow-runner
              podMetadata: { labels: { team: payments } }
              nodeSelector: { pool: batch }
              tolerations: [ { key: batch, operator: Exists, effect: NoSchedule } ]
              imagePullSecrets: [ { name: regcred } ]
              securityContext: { runAsNonRoot: true, runAsUser: 65532, seccompProfile: { type: RuntimeDefault } }
              podGC: { strategy: OnPodSuccess }
              ttlStrategy: { secondsAfterCompletion: 3600 }
              volumes: [ { name: shared, persistentVolumeClaim: { claimName: flow-shared } } ]
            container:
              imagePullPolicy: IfNotPresent
              resources: { requests: { cpu: 100m, memory: 64Mi }, limits: { memory: 256Mi } }
              securityContext:
                allowPrivilegeEscalation: false
                readOnlyRootFilesystem: true
                capabilities: { drop: [ALL] }
              volumeMounts: [ { name: shared, mountPath: /shared } ]
            services:
              web: { image: "registry.example/web:2" }
            cron: { concurrencyPolicy: Forbid }
            """)
        let text = """
            version: 1
            services:
              web: { run: ["python3", "-m", "http.server", "${{ services.web.port }}"] }
            steps:
              hello: { run: echo hello }
            """
        let outcome = try await Self.exported(
            scratch, "overlay-flow.yaml", text,
            ["--overlay", overlay, "--service-port", String(try freeLoopbackPort())])
        let manifest = outcome.stdout
        for line in [
            "    team: \"payments\"", "    owner: \"ops@example.com\"", "  serviceAccountName: \"flow-runner\"",
            "    strategy: \"OnPodSuccess\"", "    secondsAfterCompletion: 3600", "      claimName: \"flow-shared\"",
            "        imagePullPolicy: \"IfNotPresent\"", "            cpu: \"100m\"",
            "          readOnlyRootFilesystem: true",
            "          - mountPath: \"/shared\"", "        image: \"registry.example/web:2\"",
            "    runAsNonRoot: true", "    - name: \"regcred\"", "    pool: \"batch\"",
        ] {
            #expect(manifest.contains(line + "\n"), "missing \(line)\n\(manifest)")
        }
        // Every container (the step's, the service's and flow-outcome's) has the security context;
        // the step's and the service's have both emptyDirs.
        #expect(manifest.components(separatedBy: "readOnlyRootFilesystem: true").count == 4, "\(manifest)")
        #expect(manifest.components(separatedBy: "mountPath: \"/flow\"").count == 3, "\(manifest)")
        #expect(!manifest.contains("ghcr.io/flow/flow:latest\"\n        command:\n          - \"python3\""))
        let run = try await ArgoExportTests.check([
            "run", scratch.path("overlay-flow.yaml.argo.yaml"), "--flow", FlowProcess.binary.path, "--mount",
            "workflow=\(scratch.folder.path)", "--mount", "shared=\(scratch.folder.path)",
        ])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr.suffix(3000))")

        let template = try await Self.exported(scratch, "template.yaml", text, ["--kind", "WorkflowTemplate"])
        #expect(template.stdout.contains("kind: \"WorkflowTemplate\"\nmetadata:\n  name: \"template\"\n"))
        let cron = try await Self.exported(
            scratch, "nightly.yaml", text,
            ["--kind", "CronWorkflow", "--schedule", "0 3 * * *", "--overlay", overlay])
        for line in [
            "kind: \"CronWorkflow\"", "  name: \"nightly\"", "  schedules:\n    - \"0 3 * * *\"", "  workflowSpec:",
            "  concurrencyPolicy: \"Forbid\"",
        ] {
            #expect(cron.stdout.contains(line + "\n"), "missing \(line)\n\(cron.stdout)")
        }
        let file = scratch.path("template.yaml")
        let noSchedule = try await Self.export(file, ["--kind", "CronWorkflow"])
        #expect(noSchedule.exitCode == 2 && noSchedule.stderr.contains("needs --schedule"), "\(noSchedule.stderr)")
        let badKey = try await Self.export(
            file, ["--overlay", try scratch.write("bad.yaml", "containers: { image: x }\n")])
        #expect(badKey.exitCode == 2 && badKey.stderr.contains("unknown key 'containers'"), "\(badKey.stderr)")
    }
}
