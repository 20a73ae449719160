import FlowJournal
import FlowSandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `flow run --resume`: a run that failed or was killed continues where it stopped, against the
/// real sandbox, whose request log shows what was sent again and what was not.
@Suite(.serialized) struct ResumeRunTests {
    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-resume-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit {
            // A read-only state folder from a test must be writable again to be removed.
            chmod(folder.appendingPathComponent(".flow").path, 0o755)
            try? FileManager.default.removeItem(at: folder)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func write(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }
    }

    /// The requests the server saw, as `METHOD path` lines in order.
    static func requests(_ sandbox: Sandbox) -> [String] {
        sandbox.events().map { "\($0.method) \($0.path)" }
    }

    static func count(_ line: String, in sandbox: Sandbox) -> Int {
        requests(sandbox).filter { $0 == line }.count
    }

    static func workflow(_ baseURL: String, second: String = "/echo?step=second") -> String {
        """
        version: 1
        defaults:
          http: { base-url: "\(baseURL)" }
        steps:
          first:
            http: { url: "/echo?step=first" }
            outputs: { token: "${{ result.json.query.step }}" }
          second:
            needs: first
            http: { url: "\(second)" }
          third:
            needs: second
            http: { url: "/echo?step=third" }
          gate:
            needs: first
            http: { url: "/status/${{ env.GATE }}" }
          last:
            needs: [gate, third]
            http: { url: "/echo?got=${{ steps.first.outputs.token }}" }
        """
    }

    @Test func aResumeSkipsSucceededStepsAndKeepsTheirOutputs() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write("resume.yaml", Self.workflow(sandbox.baseURL))
        let failed = try await FlowProcess.run(["run", file], environment: ["GATE": "500"])
        #expect(failed.exitCode == 1, "\(failed.stderr)")
        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["GATE": "200"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming run"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("3 steps kept (first, second, third)"), "\(resumed.stderr)")
        for line in ["GET /echo?step=first", "GET /echo?step=second", "GET /echo?step=third", "GET /status/500"] {
            #expect(Self.count(line, in: sandbox) == 1, "\(line): \(Self.requests(sandbox))")
        }
        // The kept step's output reached the step that ran after the resume.
        #expect(Self.count("GET /echo?got=first", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /status/200", in: sandbox) == 1)
        // Finished: nothing left to resume.
        let again = try await FlowProcess.run(["run", file, "--resume"], environment: ["GATE": "200"])
        #expect(again.exitCode == 2, "\(again.stderr)")
        #expect(again.stderr.contains("nothing to resume"), "\(again.stderr)")
    }

    @Test func aChangedStepRunsAgainWithItsDependents() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write("changed.yaml", Self.workflow(sandbox.baseURL))
        let failed = try await FlowProcess.run(["run", file], environment: ["GATE": "503"])
        #expect(failed.exitCode == 1, "\(failed.stderr)")
        // Comments and spacing do not count as a change; the URL does.
        _ = try scratch.write(
            "changed.yaml", "# edited\n" + Self.workflow(sandbox.baseURL, second: "/echo?step=second&v=2"))
        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["GATE": "200"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stderr.contains("running 'second' again: its definition changed"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("running 'third' again: it needs 'second'"), "\(resumed.stderr)")
        #expect(Self.count("GET /echo?step=first", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /echo?step=second&v=2", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /echo?step=third", in: sandbox) == 2, "\(Self.requests(sandbox))")
    }

    /// A POST without an idempotency key in flight when the run is killed: its outcome is unknown,
    /// so the resume stops and names it; `--rerun` accepts sending it again. A keyed POST in
    /// flight at the same time is simply sent again, with the same key.
    @Test func anUnsafePostInFlightStopsTheResumeUntilRerunIsGiven() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write(
            "pay.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              first:
                http: { url: "/echo?step=first" }
              pay:
                needs: first
                http: { method: POST, url: "/delay/${{ env.PAY_MS }}?unkeyed=1", json: { amount: 5 } }
              book:
                needs: first
                http:
                  method: POST
                  url: "/delay/${{ env.PAY_MS }}?key=${{ idempotencyKey() }}"
                  headers: { Idempotency-Key: "${{ idempotencyKey() }}" }
                  json: { seats: 2 }
            """)
        let child = try FlowChild(["run", file], environment: ["PAY_MS": "60000"])
        let sent = await FlowChild.wait(for: .seconds(30)) {
            Self.requests(sandbox).filter { $0.hasPrefix("POST /delay/60000") }.count == 2
        }
        #expect(sent, "\(Self.requests(sandbox))\n\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        let before = Self.requests(sandbox).count
        let stopped = try await FlowProcess.run(["run", file, "--resume"], environment: ["PAY_MS": "0"])
        #expect(stopped.exitCode == 2, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("'pay'") && stopped.stderr.contains("--rerun pay"), "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("'book'"), "\(stopped.stderr)")
        #expect(Self.requests(sandbox).count == before, "nothing is sent: \(Self.requests(sandbox))")
        let resumed = try await FlowProcess.run(
            ["run", file, "--resume", "--rerun", "pay"], environment: ["PAY_MS": "0"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(Self.count("GET /echo?step=first", in: sandbox) == 1, "\(Self.requests(sandbox))")
        let keys = Self.requests(sandbox).filter { $0.contains("?key=") }.map { $0.components(separatedBy: "key=")[1] }
        #expect(keys.count == 2 && Set(keys).count == 1, "the same key before and after: \(keys)")
        #expect(keys.first?.count == 36, "\(keys)")
    }

    /// Ctrl-C while an unkeyed POST waits for its answer: the run ends (130) with the step
    /// cancelled, and its outcome is as unknown as after a kill: the resume stops there.
    @Test func anUnsafePostCancelledByCtrlCIsStillUnknownOnResume() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write(
            "cancel.yaml",
            """
            version: 1
            steps:
              pay:
                http: { method: POST, url: "\(sandbox.baseURL)/delay/60000", json: { amount: 5 } }
            """)
        let child = try FlowChild(["run", file])
        let sent = await FlowChild.wait(for: .seconds(30)) { Self.count("POST /delay/60000", in: sandbox) == 1 }
        #expect(sent, "\(child.errors)")
        kill(child.pid, SIGINT)
        #expect(await child.exitCode(within: .seconds(20)) == 130, "\(child.errors)")
        let stopped = try await FlowProcess.run(["run", file, "--resume"])
        #expect(stopped.exitCode == 2, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("--rerun pay"), "\(stopped.stderr)")
        #expect(Self.count("POST /delay/60000", in: sandbox) == 1)
    }

    /// Unkeyed POSTs of a `for-each` in flight when the run is killed: the resume stops naming
    /// the step and which of its items are in doubt (the one answered is not).
    @Test func anUnsafePostOfForEachItemsNamesTheItemsInDoubt() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write(
            "orders.yaml",
            """
            version: 1
            steps:
              pay:
                for-each: [0, 60000, 60000]
                concurrency: 3
                http: { method: POST, url: "\(sandbox.baseURL)/delay/${{ item }}?i=${{ index }}", json: { amount: 5 } }
            """)
        let child = try FlowChild(["run", file])
        let sent = await FlowChild.wait(for: .seconds(30)) {
            let requests = Self.requests(sandbox)
            return requests.filter { $0.hasPrefix("POST /delay/60000") }.count == 2
                && requests.contains("POST /delay/0?i=0")
        }
        #expect(sent, "\(Self.requests(sandbox))\n\(child.errors)")
        // The answered item's end is in the journal within its batch window (20 ms).
        let answered = await FlowChild.wait(for: .seconds(10)) {
            guard let journal = try? Journal.openForReading(stateDirectory: scratch.path(".flow")) else { return false }
            defer { journal.close() }
            guard let id = try? journal.runs(file: nil).first?.id, let detail = try? journal.run(id: id) else {
                return false
            }
            return detail.steps.contains { $0.step == "pay" && $0.item == 0 && $0.state == .succeeded }
        }
        #expect(answered, "\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        let stopped = try await FlowProcess.run(["run", file, "--resume"])
        #expect(stopped.exitCode == 2, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("'pay' (items 1 and 2"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("--rerun pay"), "\(stopped.stderr)")
    }

    @Test func aKilledTusUploadContinuesFromTheServersOffsetWithoutANewCreation() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        var bytes = [UInt8](repeating: 0, count: 600 * 1024)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        let data = Data(bytes)
        try data.write(to: URL(fileURLWithPath: scratch.path("big.bin")))
        let file = try scratch.write(
            "upload.yaml",
            """
            version: 1
            steps:
              send:
                upload:
                  file: "\(scratch.path("big.bin"))"
                  url: "\(sandbox.baseURL)/uploads/tus?pace-ms=${{ env.PACE }}"
                  protocol: tus
                  chunk-size: 64KiB
            """)
        let child = try FlowChild(["run", file], environment: ["PACE": "150"])
        let midway = await FlowChild.wait(for: .seconds(30)) {
            Self.requests(sandbox).filter { $0.hasPrefix("PATCH") }.count >= 3
        }
        #expect(midway, "\(Self.requests(sandbox))\n\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        let creations = Self.requests(sandbox).filter { $0.hasPrefix("POST /uploads/tus") }.count
        #expect(creations == 1)
        let logged = Self.requests(sandbox).count
        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["PACE": "0"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        let after = Array(Self.requests(sandbox).dropFirst(logged))
        #expect(after.first?.hasPrefix("HEAD /uploads/tus/") == true, "asks first: \(after)")
        #expect(!after.contains { $0.hasPrefix("POST") }, "no new creation: \(after)")
        guard let id = after.first?.split(separator: "/").last.map(String.init) else { return }
        let (body, _) = try await URLSession.shared.data(
            from: URL(string: "\(sandbox.baseURL)/uploads/tus/\(id)/info")!)
        let text = String(decoding: body, as: UTF8.self)
        let sha = try Self.sha256Hex(scratch.path("big.bin"))
        #expect(text.contains("\"complete\":true") && text.contains(sha), "\(text)")
    }

    /// A file changed since the interrupted run is not continued on the old session: it is sent
    /// again from the start, and flow says so.
    @Test func aChangedFileStartsTheUploadOver() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let path = scratch.path("data.bin")
        try Data(repeating: 7, count: 400 * 1024).write(to: URL(fileURLWithPath: path))
        let file = try scratch.write(
            "changed-file.yaml",
            """
            version: 1
            steps:
              send:
                upload:
                  file: "\(path)"
                  url: "\(sandbox.baseURL)/uploads/tus?pace-ms=${{ env.PACE }}"
                  protocol: tus
                  chunk-size: 64KiB
            """)
        let child = try FlowChild(["run", file], environment: ["PACE": "150"])
        let midway = await FlowChild.wait(for: .seconds(30)) {
            Self.requests(sandbox).filter { $0.hasPrefix("PATCH") }.count >= 2
        }
        #expect(midway, "\(child.errors)")
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        try Data(repeating: 9, count: 300 * 1024).write(to: URL(fileURLWithPath: path))
        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["PACE": "0"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stdout.contains("changed since the interrupted run"), "\(resumed.stdout)")
        #expect(Self.requests(sandbox).filter { $0.hasPrefix("POST /uploads/tus") }.count == 2)
    }

    @Test func aReadOnlyStateFolderStopsTheRunBeforeAnyRequest() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write("ro.yaml", Self.workflow(sandbox.baseURL))
        var state = scratch.path(".flow")
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        chmod(state, 0o555)
        if access(state, W_OK) == 0 {
            // Root writes anywhere: a folder that cannot be made (under a plain file) shows the check.
            _ = try scratch.write("plain-file", "")
            state = scratch.path("plain-file/state")
        }
        let outcome = try await FlowProcess.run(["run", file, "--state-dir", state], environment: ["GATE": "200"])
        #expect(outcome.exitCode == 2, "\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(scratch.folder.path) && outcome.stderr.contains("--no-journal"), "\(outcome.stderr)"
        )
        #expect(Self.requests(sandbox).isEmpty, "\(Self.requests(sandbox))")
        let unjournaled = try await FlowProcess.run(
            ["run", file, "--state-dir", state, "--no-journal"], environment: ["GATE": "200"])
        #expect(unjournaled.exitCode == 0, "\(unjournaled.stderr)")
    }

    /// An output holding a secret is kept as a marker only: the secret is in no file of the state
    /// folder, and its step runs again on resume.
    @Test func aSecretOutputIsNeverJournaledAndItsStepRunsAgain() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let secret = "s3cr3t-\(UUID().uuidString.prefix(8))"
        let file = try scratch.write(
            "secret.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              login:
                http: { url: "/echo?token=${{ secrets.TOKEN }}" }
                outputs: { token: "${{ result.json.query.token }}" }
              plain:
                http: { url: "/echo?step=plain" }
              gate:
                needs: [login, plain]
                http: { url: "/status/${{ env.GATE }}" }
            """)
        let environment = ["FLOW_SECRET_TOKEN": secret]
        let failed = try await FlowProcess.run(["run", file], environment: environment.merging(["GATE": "500"]) { $1 })
        #expect(failed.exitCode == 1, "\(failed.stderr)")
        let resumed = try await FlowProcess.run(
            ["run", file, "--resume"], environment: environment.merging(["GATE": "200"]) { $1 })
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("running 'login' again: its outputs held a secret"), "\(resumed.stderr)")
        #expect(Self.count("GET /echo?step=plain", in: sandbox) == 1)
        #expect(Self.requests(sandbox).filter { $0.hasPrefix("GET /echo?token=") }.count == 2)
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.path(".flow")) {
            let bytes = FileManager.default.contents(atPath: scratch.path(".flow/\(name)")) ?? Data()
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "the secret is in \(name)")
        }
    }

    /// A `for-each` step that failed on one item: on resume only that item runs; the others keep
    /// their outputs, which a later step reads.
    @Test func aForEachResumesItsUnfinishedItemsOnly() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write(
            "items.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              fetch:
                for-each: [a, b, c, d, e]
                fail-fast: false
                http: { url: "/status/${{ item == 'c' && env.C_CODE || '200' }}?item=${{ item }}" }
                outputs: { got: "${{ item }}-${{ index }}" }
              after:
                needs: fetch
                http: { url: "/echo?all=${{ join(steps.fetch.outputs.got, '_') }}" }
            """)
        let failed = try await FlowProcess.run(["run", file], environment: ["C_CODE": "500"])
        #expect(failed.exitCode == 1, "\(failed.stdout)\n\(failed.stderr)")
        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["C_CODE": "200"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stderr.contains("running 'fetch' again with 4 succeeded items kept"), "\(resumed.stderr)")
        for item in ["a", "b", "d", "e"] {
            #expect(Self.count("GET /status/200?item=\(item)", in: sandbox) == 1, "\(item): \(Self.requests(sandbox))")
        }
        #expect(Self.count("GET /status/500?item=c", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /status/200?item=c", in: sandbox) == 1, "\(Self.requests(sandbox))")
        // The kept items' outputs reached the step after.
        #expect(Self.count("GET /echo?all=a-0_b-1_c-2_d-3_e-4", in: sandbox) == 1, "\(Self.requests(sandbox))")
        // A second resume has nothing left to do.
        let again = try await FlowProcess.run(["run", file, "--resume"], environment: ["C_CODE": "200"])
        #expect(again.exitCode == 2, "\(again.stderr)")
    }

    /// The file's sha256 as `sha256sum` prints it.
    static func sha256Hex(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }
}
