import FlowJournal
import FlowSandbox
import Foundation
import Testing

/// `flow runs` and `flow runs show` on journals made through FlowJournal, as a user reads them.
@Suite struct RunsCommandTests {
    /// A workflow file in a fresh folder, with a journal in `.flow` beside it holding two runs:
    /// an older one that failed (a retried step, a for-each item, an upload session) and a newer
    /// one that succeeded.
    struct Fixture {
        let folder: String
        let file: String
        let failed: String
        let succeeded: String

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-runs-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            file = folder + "/deploy.yaml"
            try "version: 1\nsteps:\n  a: { run: echo }\n".write(toFile: file, atomically: true, encoding: .utf8)
            let journal = try Journal.open(stateDirectory: folder + "/.flow")
            defer { journal.close() }
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let canonical = JournalLocation.canonicalFile(file)
            failed = try journal.beginRun(
                NewRun(
                    file: canonical, fileHash: "f1", stepHashes: ["build": "b1", "fetch": "f1"],
                    inputs: ["region": "eu"], startedAt: start))
            journal.record(
                .stepFinished(
                    run: failed, step: "build", item: nil, state: .succeeded, attempts: 1, startedAt: start,
                    finishedAt: start.addingTimeInterval(1.5),
                    outputs: .json(#"{"outputs":{"artifact":"app.tar","size":42},"status":"succeeded"}"#),
                    error: nil))
            journal.record(
                .stepFinished(
                    run: failed, step: "fetch", item: 2, state: .failed, attempts: 3,
                    startedAt: start.addingTimeInterval(2), finishedAt: start.addingTimeInterval(4),
                    outputs: .none, error: "HTTP 503 from /files/2"))
            journal.record(
                .stepFinished(
                    run: failed, step: "login", item: nil, state: .succeeded, attempts: 1,
                    startedAt: start.addingTimeInterval(1), finishedAt: start.addingTimeInterval(1.2),
                    outputs: .secret, error: nil))
            journal.record(
                .transfer(
                    run: failed, step: "upload", item: nil, kind: "tus", target: "http://127.0.0.1:9/files/abc",
                    bytesConfirmed: 1_048_576, fileIdentity: "/data/big.bin:4194304:1800000000"))
            journal.record(.runFinished(run: failed, state: .failed, at: start.addingTimeInterval(4)))
            succeeded = try journal.beginRun(
                NewRun(
                    file: canonical, fileHash: "f1", stepHashes: [:], inputs: [:],
                    startedAt: start.addingTimeInterval(3600)))
            journal.record(
                .stepFinished(
                    run: succeeded, step: "build", item: nil, state: .succeeded, attempts: 1,
                    startedAt: start.addingTimeInterval(3600), finishedAt: start.addingTimeInterval(3601),
                    outputs: .stateOnly, error: nil))
            journal.record(.runFinished(run: succeeded, state: .succeeded, at: start.addingTimeInterval(3725)))
            try journal.flushAndWait()
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    private let utc = ["TZ": "UTC"]

    /// A table row's cells (columns are two or more spaces apart).
    private func cells(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func listsRunsNewestFirstWithStatesDurationsAndStepCounts() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outcome = try await FlowProcess.run(["runs", fixture.file], environment: utc)
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(outcome.stdout)")
        let canonical = JournalLocation.canonicalFile(fixture.file)
        #expect(cells(lines[0]) == ["ID", "STATE", "STARTED", "DURATION", "STEPS", "FILE"])
        #expect(
            cells(lines[1]) == [
                fixture.succeeded, "succeeded", "2027-01-15 09:00:00", "2m 05s", "1 succeeded", canonical,
            ])
        #expect(
            cells(lines[2]) == [
                fixture.failed, "failed", "2027-01-15 08:00:00", "4.00s", "2 succeeded (1 item: 1 failed)", canonical,
            ])
        // Columns line up: every row's state starts where the header's does.
        let stateColumn = try #require(lines[0].range(of: "STATE")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].dropFirst(stateColumn).hasPrefix("succeeded"))
        #expect(lines[2].dropFirst(stateColumn).hasPrefix("failed"))
    }

    @Test func theStateDirectoryComesFromTheFlagTheVariableOrTheCurrentFolder() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let state = fixture.folder + "/.flow"
        let byFlag = try await FlowProcess.run(["runs", "--state-dir", state, "--format", "json"])
        let byVariable = try await FlowProcess.run(
            ["runs", "--format", "json"], environment: ["FLOW_STATE_DIR": state])
        let here = try await FlowProcess.run(
            ["runs", "--format", "json"], environment: ["FLOW_STATE_DIR": ""], shell: "cd '\(fixture.folder)'")
        for outcome in [byFlag, byVariable, here] {
            #expect(outcome.exitCode == 0, "\(outcome.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
            let runs = object?["runs"] as? [[String: Any]]
            #expect(
                runs?.compactMap { $0["id"] as? String } == [fixture.succeeded, fixture.failed], "\(outcome.stdout)")
        }
        // A folder without a journal: nothing recorded, and nothing created.
        let empty = fixture.folder + "/empty"
        let none = try await FlowProcess.run(["runs", "--state-dir", empty])
        #expect(none.exitCode == 0)
        #expect(none.stdout == "no runs recorded in \(empty)\n")
        #expect(!FileManager.default.fileExists(atPath: empty))
    }

    @Test func showsOneRunsStepsAttemptsErrorsOutputsAndTransfers() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outcome = try await FlowProcess.run(["runs", "show", fixture.failed, fixture.file], environment: utc)
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let expected = """
            run \(fixture.failed): failed
              file:     \(JournalLocation.canonicalFile(fixture.file))
              started:  2027-01-15 08:00:00
              duration: 4.00s
              steps:    2 succeeded (1 item: 1 failed)
              inputs:   region=eu

            STEP      STATE      ATTEMPTS  STARTED              DURATION
            build     succeeded  1         2027-01-15 08:00:00  1.50s
                outputs: {"artifact":"app.tar","size":42}
            login     succeeded  1         2027-01-15 08:00:01  0.20s
                outputs: not stored (they held a secret; the step runs again on --resume)
            fetch[2]  failed     3         2027-01-15 08:00:02  2.00s
                error: HTTP 503 from /files/2

            transfers:
              upload: tus http://127.0.0.1:9/files/abc, 1048576 bytes confirmed

            """
        #expect(outcome.stdout == expected)
    }

    @Test func showInJSONKeepsTypesAndItems() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outcome = try await FlowProcess.run(
            ["runs", "show", fixture.failed, "--state-dir", fixture.folder + "/.flow", "--format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "failed")
        // Steps by state, the for-each items apart (as the run's summary counts them).
        #expect(object["stepCounts"] as? [String: Int] == ["succeeded": 2])
        #expect(object["itemCounts"] as? [String: Int] == ["failed": 1])
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(steps.compactMap { $0["step"] as? String } == ["build", "login", "fetch"])
        #expect(steps[2]["item"] as? Int == 2)
        #expect(steps[2]["attempts"] as? Int == 3)
        #expect(steps[2]["error"] as? String == "HTTP 503 from /files/2")
        #expect((steps[0]["outputs"] as? [String: Any])?["size"] as? Int == 42)
        #expect(steps[1]["containsSecret"] as? Bool == true)
        #expect(steps[1]["outputs"] is NSNull)
        let transfers = try #require(object["transfers"] as? [[String: Any]])
        #expect(transfers.first?["bytesConfirmed"] as? Int == 1_048_576)
    }

    /// `text` as `flow.yaml` in a new folder of its own (so its `.flow` journal is its alone): the
    /// folder, to remove, and the file. `folder` names the folder beforehand, for a text that uses it.
    private static func workflowInOwnFolder(
        _ text: String,
        folder: String = FileManager.default.temporaryDirectory.appendingPathComponent("flow-runs-\(UUID())").path
    ) throws -> (folder: String, file: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/flow.yaml"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    /// The journal holds back a step's start and writes it only if the step still runs when its
    /// next batch is written (a step that ends first is one change, its finish carrying its start):
    /// a live run still shows its running step, and the ended step's start.
    @Test func aLiveRunShowsItsRunningStepAndWhenTheEndedOneStarted() async throws {
        let (folder, file) = try Self.workflowInOwnFolder(
            """
            version: 1
            steps:
              quick: { run: 'true' }
              long: { needs: quick, run: 'sleep 30' }
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let flow = try FlowChild(["run", file])
        defer { kill(flow.pid, SIGKILL) }
        #expect(await FlowChild.wait(for: .seconds(30)) { flow.output.contains("[long] started") }, "\(flow.errors)")

        var steps: [[String: Any]] = []
        // Written within the journal's batch window (20 ms); a loaded machine gets a few seconds.
        _ = await FlowChild.wait(for: .seconds(5)) {
            guard
                let listing = try? FlowProcess.runBlocking(["runs", file, "--format", "json"]),
                let runs = (try? JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any])?[
                    "runs"] as? [[String: Any]],
                let id = runs.first?["id"] as? String,
                let shown = try? FlowProcess.runBlocking([
                    "runs", "show", id, "--state-dir", folder + "/.flow", "--format", "json",
                ]),
                let object = try? JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
            else { return false }
            steps = object["steps"] as? [[String: Any]] ?? []
            return steps.count == 2
        }
        let byName = Dictionary(steps.map { (($0["step"] as? String) ?? "", $0) }) { first, _ in first }
        #expect(byName["long"]?["state"] as? String == "running", "\(steps)")
        #expect(byName["long"]?["startedAt"] is String, "\(steps)")
        #expect(byName["quick"]?["state"] as? String == "succeeded", "\(steps)")
        let quickStart = byName["quick"]?["startedAt"] as? String
        let quickEnd = byName["quick"]?["finishedAt"] as? String
        #expect(quickStart != nil && quickEnd != nil && quickStart! <= quickEnd!, "\(steps)")
    }

    /// The journal's step times come from the scheduler's clock: they must still be wall-clock
    /// dates, inside the run, in the order the steps ran, as long as the steps took.
    @Test func journaledStepTimesAreWallClockDatesOfTheRun() async throws {
        let (folder, file) = try Self.workflowInOwnFolder(
            """
            version: 1
            steps:
              first: { sleep: 300ms }
              second: { needs: first, sleep: 200ms }
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = Date()
        let run = try await FlowProcess.run(["run", file])
        let after = Date()
        #expect(run.exitCode == 0, "\(run.stderr)")
        let journal = try #require(try Journal.openForReading(stateDirectory: folder + "/.flow"))
        defer { journal.close() }
        let id = try #require(try journal.runs(file: JournalLocation.canonicalFile(file)).first?.id)
        let steps = try #require(try journal.run(id: id)).steps
        let first = try #require(steps.first { $0.step == "first" })
        let second = try #require(steps.first { $0.step == "second" })
        let (firstStart, firstEnd) = (try #require(first.startedAt), try #require(first.finishedAt))
        let (secondStart, secondEnd) = (try #require(second.startedAt), try #require(second.finishedAt))
        // A millisecond of slack: dates are stored as seconds in a Double.
        #expect(firstStart >= before.addingTimeInterval(-0.001) && secondEnd <= after.addingTimeInterval(0.001))
        #expect(firstEnd.timeIntervalSince(firstStart) >= 0.299, "\(steps)")
        #expect(secondEnd.timeIntervalSince(secondStart) >= 0.199, "\(steps)")
        #expect(secondStart >= firstEnd, "\(steps)")
    }

    /// A real run's journal, shown: each step's outputs as the workflow named them (not the
    /// journal's record around them), a `for-each` item's likewise, and a finished tus upload's
    /// session at the file's full size.
    @Test func showsARealRunsOutputsAndAFinishedUploadsFullSize() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let size = 3_000_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-runs-\(UUID())").path
        let (_, file) = try Self.workflowInOwnFolder(
            """
            version: 1
            steps:
              first:
                http: { url: "\(sandbox.baseURL)/echo?token=abc" }
                outputs: { token: "${{ result.json.query.token }}" }
              each:
                for-each: [red]
                http: { url: "\(sandbox.baseURL)/echo?colour=${{ item }}" }
                outputs: { colour: "${{ result.json.query.colour }}" }
              send:
                upload:
                  file: "\(folder)/big.bin"
                  url: "\(sandbox.baseURL)/uploads/tus"
                  protocol: tus
                  chunk-size: 64KiB
            """, folder: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(repeating: 5, count: size).write(to: URL(fileURLWithPath: folder + "/big.bin"))
        let run = try await FlowProcess.run(["run", file])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let journal = try #require(try Journal.openForReading(stateDirectory: folder + "/.flow"))
        let id = try #require(try journal.runs(file: JournalLocation.canonicalFile(file)).first?.id)
        journal.close()
        let shown = try await FlowProcess.run(["runs", "show", id, file])
        #expect(shown.exitCode == 0, "\(shown.stderr)")
        let lines = shown.stdout.split(separator: "\n").map(String.init)
        let outputs = lines.filter { $0.hasPrefix("    outputs: ") }
        #expect(outputs.contains(#"    outputs: {"token":"abc"}"#), "\(shown.stdout)")
        #expect(outputs.contains(#"    outputs: {"colour":"red"}"#), "\(shown.stdout)")
        #expect(!shown.stdout.contains(#""status""#), "\(shown.stdout)")
        #expect(shown.stdout.contains(", \(size) bytes confirmed"), "\(shown.stdout)")
        let json = try await FlowProcess.run(["runs", "show", id, file, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let first = try #require(steps.first { $0["step"] as? String == "first" })
        #expect(first["outputs"] as? [String: String] == ["token": "abc"], "\(json.stdout)")
        let transfers = try #require(object["transfers"] as? [[String: Any]])
        #expect(transfers.first?["bytesConfirmed"] as? Int == size, "\(json.stdout)")
    }

    @Test func anUnknownIdExitsWith2() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outcome = try await FlowProcess.run(["runs", "show", "20000101-000000-0000", fixture.file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stdout.isEmpty)
        #expect(
            outcome.stderr.hasPrefix(
                "flow runs: no run 20000101-000000-0000 in \(fixture.folder)/.flow (see `flow runs`"),
            "\(outcome.stderr)")
    }

    @Test func aDamagedJournalIsNamedWithWhatToDo() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let state = fixture.folder + "/.flow"
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: state + "/journal.sqlite" + suffix)
        }
        try Data(String(repeating: "garbage ", count: 1000).utf8).write(
            to: URL(fileURLWithPath: state + "/journal.sqlite"))
        let outcome = try await FlowProcess.run(["runs", fixture.file])
        #expect(outcome.exitCode == 2)
        #expect(outcome.stderr.contains("journal \(state)/journal.sqlite is damaged"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("move it away"))
    }
}
