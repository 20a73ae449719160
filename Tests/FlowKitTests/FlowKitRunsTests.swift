import FlowKit
import FlowSandbox
import Foundation
import Testing

/// `FlowRuns`: the runs an app's journaled runs left, read back as values (what `flow runs` prints).
@Suite struct FlowKitRunsTests {
    /// Writes `yaml` at `name` in `folder`, runs it with a journal in `folder/.flow`, and returns
    /// the file's path and the run's outcome.
    private func journaledRun(
        _ yaml: String, named name: String, in folder: TestFolder, secrets: FlowSecrets = .none,
        inputs: [String: String] = [:]
    ) async throws -> (file: String, outcome: FlowOutcome) {
        let file = folder.path + "/" + name
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        var options = FlowRunOptions()
        options.journal = .folder(folder.path + "/.flow")
        options.secrets = secrets
        options.inputs = inputs
        let run = try FlowWorkflow(contentsOf: file).start(options)
        return (file, await run.outcome)
    }

    @Test func aJournaledRunIsListedWithEachStepsStateOutputsAndTransfers() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try TestFolder()
        defer { folder.remove() }
        let upload = try folder.file("big.bin", bytes: 200_000)
        let (file, outcome) = try await journaledRun(
            """
            version: 1
            inputs:
              region: { type: string }
            steps:
              first:
                http: { url: "\(sandbox.baseURL)/echo?token=abc" }
                outputs: { token: "${{ result.json.query.token }}" }
              secretive:
                http: { url: "\(sandbox.baseURL)/echo" }
                outputs: { key: "${{ secrets.KEY }}" }
              each:
                for-each: [red, blue]
                http: { url: "\(sandbox.baseURL)/echo?colour=${{ item }}" }
                outputs: { colour: "${{ result.json.query.colour }}" }
              send:
                upload: { file: "\(upload)", url: "\(sandbox.baseURL)/uploads/tus", protocol: tus, chunk-size: 64KiB }
              broken:
                needs: [first, secretive, each, send]
                run: "exit 3"
              checks:
                for-each: [3]
                run: "exit ${{ item }}"
            """, named: "app.yaml", in: folder, secrets: .values(["KEY": "k3y"]), inputs: ["region": "eu"])
        #expect(outcome.state == .failed)

        let stateFolder = FlowRuns.folder(workflowFile: file)
        #expect(stateFolder.hasSuffix("/.flow"))
        let runs = try FlowRuns.list(folder: stateFolder, workflowFile: file)
        try #require(runs.count == 1)
        let record = runs[0]
        #expect(record.state == .failed)
        #expect(record.workflowFile.hasSuffix("/app.yaml"))
        let finished = try #require(record.finishedAt)
        #expect(finished >= record.startedAt)
        // A `for-each` step counts once among the steps; its items apart.
        #expect(record.stepCounts == [.succeeded: 4, .failed: 2])
        #expect(record.itemCounts == [.succeeded: 2, .failed: 1])

        let detail = try #require(try FlowRuns.run(id: record.id, folder: stateFolder))
        #expect(detail.record == record)
        #expect(detail.inputs == ["region": "eu"])
        #expect(Set(detail.stepHashes.keys) == ["first", "secretive", "each", "send", "broken", "checks"])
        let steps = Dictionary(uniqueKeysWithValues: detail.steps.map { ($0.name, $0) })
        #expect(steps["first"]?.outputs == .json(#"{"token":"abc"}"#))
        #expect(steps["first"]?.outputs.value == .object(["token": .string("abc")]))
        // A secret in the outputs: not stored, and not shown anywhere in the record.
        #expect(steps["secretive"]?.outputs == .secret)
        #expect(steps["secretive"]?.outputs.value == nil)
        #expect(steps["each[1]"]?.outputs == .json(#"{"colour":"blue"}"#))
        #expect(steps["each[1]"]?.item == 1)
        #expect(steps["each"]?.outputs.value == .object(["colour": .array([.string("red"), .string("blue")])]))
        #expect(steps["send"]?.outputs == .json("{}"))
        let broken = try #require(steps["broken"])
        #expect(broken.state == .failed)
        #expect(broken.attempts == 1)
        #expect(broken.outputs == .json("{}"))
        #expect(broken.error?.contains("3") == true, "\(broken.error ?? "")")
        #expect(!broken.unsafeRequestInFlight)
        // A failed item keeps nothing.
        #expect(steps["checks[0]"]?.state == .failed)
        #expect(steps["checks[0]"]?.outputs == .notKept)
        let started = try #require(broken.startedAt)
        #expect(try #require(broken.finishedAt) >= started)
        let transfer = try #require(detail.transfers.first)
        #expect(transfer.name == "send")
        #expect(transfer.kind == "tus")
        #expect(transfer.bytesConfirmed == 200_000)
        #expect(transfer.target.hasPrefix(sandbox.baseURL + "/uploads/tus/"))
        #expect(!"\(detail)".contains("k3y"))
    }

    @Test func runsAreNewestFirstAndAFileNamesOnlyItsOwnRunsHoweverItIsSpelt() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let yaml = "version: 1\nsteps:\n  a: { run: \"true\" }\n"
        let (first, _) = try await journaledRun(yaml, named: "first.yaml", in: folder)
        let (second, _) = try await journaledRun(yaml, named: "second.yaml", in: folder)
        let (again, _) = try await journaledRun(yaml, named: "first.yaml", in: folder)
        #expect(again == first)
        let all = try FlowRuns.list(folder: folder.path + "/.flow")
        #expect(all.count == 3)
        #expect(all.map(\.state) == [.succeeded, .succeeded, .succeeded])
        #expect(
            all.map { ($0.workflowFile as NSString).lastPathComponent } == ["first.yaml", "second.yaml", "first.yaml"])
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.startedAt >= $1.startedAt })
        // A link to the file, and a path through `..`, name the same runs.
        let link = folder.path + "/link.yaml"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first)
        for spelling in [
            first, link, folder.path + "/../" + (folder.path as NSString).lastPathComponent + "/first.yaml",
        ] {
            let runs = try FlowRuns.list(folder: folder.path + "/.flow", workflowFile: spelling)
            #expect(runs.map(\.id) == [all[0].id, all[2].id], "\(spelling)")
        }
        #expect(try FlowRuns.list(folder: folder.path + "/.flow", workflowFile: second).map(\.id) == [all[1].id])
    }

    @Test func aCancelledRunIsInterruptedWithItsStepCancelled() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let file = folder.path + "/wait.yaml"
        try "version: 1\nsteps:\n  wait: { run: \"sleep 30\" }\n".write(toFile: file, atomically: true, encoding: .utf8)
        var options = FlowRunOptions()
        options.journal = .folder(folder.path + "/.flow")
        let run = try FlowWorkflow(contentsOf: file).start(options)
        for await event in run.events {
            if case .stepStarted("wait") = event { run.cancel() }
        }
        #expect(await run.outcome.state == .cancelled)
        let record = try #require(try FlowRuns.list(folder: folder.path + "/.flow").first)
        #expect(record.state == .interrupted)
        #expect(record.stepCounts == [.cancelled: 1])
        let detail = try #require(try FlowRuns.run(id: record.id, folder: folder.path + "/.flow"))
        #expect(detail.steps.map(\.state) == [.cancelled])
    }

    @Test func noJournalIsNoRunsAndADamagedOneIsAnErrorNamingIt() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        #expect(try FlowRuns.list(folder: folder.path).isEmpty)
        #expect(try FlowRuns.run(id: "20000101-000000-0000", folder: folder.path) == nil)
        #expect(try FlowRuns.list(folder: folder.path + "/missing").isEmpty)
        let journal = folder.path + "/journal.sqlite"
        try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: URL(fileURLWithPath: journal))
        let error = try #require(throws: FlowJournalError.self) { try FlowRuns.list(folder: folder.path) }
        #expect(error.message.contains("journal \(journal) is damaged"), "\(error)")
        #expect(error.description == error.message)
        #expect(throws: FlowJournalError.self) { try FlowRuns.run(id: "x", folder: folder.path) }
    }

    @Test func theFolderIsTheExplicitOneElseBesideTheFileElseTheCurrentOne() {
        let current = FileManager.default.currentDirectoryPath
        #expect(FlowRuns.folder(explicit: "/srv/state", workflowFile: "/srv/app/deploy.yaml") == "/srv/state")
        #expect(FlowRuns.folder(explicit: "state", workflowFile: nil) == current + "/state")
        // An empty --state-dir is no choice.
        if ProcessInfo.processInfo.environment["FLOW_STATE_DIR"] == nil {
            #expect(FlowRuns.folder(explicit: "", workflowFile: "/srv/app/deploy.yaml") == "/srv/app/.flow")
            #expect(FlowRuns.folder(workflowFile: nil) == current + "/.flow")
        }
    }
}
