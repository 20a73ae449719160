import FlowJournal
import FlowSandbox
import Foundation
import Testing

/// Two `flow run` of one file at once share its journal: each is a run of its own, a `--resume`
/// never takes over a run that is still going, and the journal stays sound. And a state folder on
/// a full disk stops `flow run` before it sends anything. Real processes, the real sandbox.
@Suite(.serialized) struct SharedJournalRunTests {
    typealias Scratch = ResumeRunTests.Scratch

    static func requests(_ sandbox: Sandbox) -> [String] { ResumeRunTests.requests(sandbox) }

    static func count(_ line: String, in sandbox: Sandbox) -> Int { ResumeRunTests.count(line, in: sandbox) }

    /// `first`, then a step that waits `env.MS` on the server, then `last`.
    static func slowWorkflow(_ baseURL: String) -> String {
        """
        version: 1
        defaults:
          http: { base-url: "\(baseURL)" }
        steps:
          first:
            http: { url: "/echo?step=first" }
          gate:
            needs: first
            http: { url: "/status/${{ env.GATE }}" }
          slow:
            needs: gate
            http: { url: "/delay/${{ env.MS }}" }
          last:
            needs: slow
            http: { url: "/echo?step=last" }
        """
    }

    /// `flow runs FILE --format json`'s runs, newest first.
    static func runs(_ file: String) async throws -> [[String: Any]] {
        let listing = try await FlowProcess.run(["runs", file, "--format", "json"])
        #expect(listing.exitCode == 0, "\(listing.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [String: Any]
        return document?["runs"] as? [[String: Any]] ?? []
    }

    static func integrity(_ stateDirectory: String) throws -> String? {
        try JournalRunSetup.reading(stateDirectory) { try $0.integrityCheck() }
    }

    @Test func twoRunsOfOneFileAtOnceAreTwoRunsAndAResumeTakesOverNeither() async throws {
        let setup = try await JournalRunSetup.start("twice.yaml", Self.slowWorkflow)
        defer { setup.stop() }
        let (scratch, sandbox, file) = (setup.scratch, setup.sandbox, setup.file)
        // Long enough for the checks below to run while both wait on the server.
        let environment = ["GATE": "200", "MS": "12000"]
        let one = try FlowChild(["run", file], environment: environment)
        let two = try FlowChild(["run", file], environment: environment)
        let waiting = await FlowChild.wait(for: .seconds(30)) { Self.count("GET /delay/12000", in: sandbox) == 2 }
        #expect(waiting, "\(Self.requests(sandbox))\n\(one.errors)\n\(two.errors)")
        let sent = Self.requests(sandbox).count

        let live = try await Self.runs(file)
        #expect(live.count == 2, "\(live)")
        #expect(live.allSatisfy { $0["state"] as? String == "running" }, "\(live)")
        let ids = live.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == 2, "each run has an id of its own: \(ids)")

        // Nothing unfinished: a running run is not resumed, by default or by its id.
        let latest = try await FlowProcess.run(["run", file, "--resume"], environment: environment)
        #expect(latest.exitCode == 2, "\(latest.stderr)")
        #expect(latest.stderr.contains("nothing to resume"), "\(latest.stderr)")
        #expect(ids.allSatisfy { latest.stderr.contains("'\($0)'") }, "names the runs still going: \(latest.stderr)")
        #expect(latest.stderr.contains("still running in another flow"), "\(latest.stderr)")
        for id in ids {
            let named = try await FlowProcess.run(["run", file, "--resume", id], environment: environment)
            #expect(named.exitCode == 2, "\(named.stderr)")
            #expect(named.stderr.contains("'\(id)'") && named.stderr.contains("still running"), "\(named.stderr)")
        }
        #expect(Self.requests(sandbox).count == sent, "the refused resumes sent nothing: \(Self.requests(sandbox))")

        #expect(await one.exitCode(within: .seconds(60)) == 0, "\(one.errors)")
        #expect(await two.exitCode(within: .seconds(60)) == 0, "\(two.errors)")
        for line in ["GET /echo?step=first", "GET /status/200", "GET /delay/12000", "GET /echo?step=last"] {
            #expect(Self.count(line, in: sandbox) == 2, "\(line): \(Self.requests(sandbox))")
        }
        let ended = try await Self.runs(file)
        #expect(Set(ended.compactMap { $0["id"] as? String }) == Set(ids), "\(ended)")
        for run in ended {
            #expect(run["state"] as? String == "succeeded", "\(run)")
            #expect((run["steps"] as? [String: Any])?["succeeded"] as? Int == 4, "\(run)")
        }
        #expect(try Self.integrity(scratch.path(".flow")) == "ok")
    }

    /// Two `--resume` of one failed run at once: one continues it, the other is refused without
    /// sending anything, and the failed step is sent again once.
    @Test func twoResumesOfOneRunAtOnceContinueItOnce() async throws {
        let setup = try await JournalRunSetup.start("resume-twice.yaml", Self.slowWorkflow)
        defer { setup.stop() }
        let (scratch, sandbox, file) = (setup.scratch, setup.sandbox, setup.file)
        let failed = try await FlowProcess.run(["run", file], environment: ["GATE": "500", "MS": "0"])
        #expect(failed.exitCode == 1, "\(failed.stderr)")
        let environment = ["GATE": "200", "MS": "8000"]
        let one = try FlowChild(["run", file, "--resume"], environment: environment)
        let two = try FlowChild(["run", file, "--resume"], environment: environment)
        let codes = [await one.exitCode(within: .seconds(60)), await two.exitCode(within: .seconds(60))]
        let errors = [one.errors, two.errors]
        #expect(codes.sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 2], "\(codes)\n\(errors)")
        if let refused = codes.firstIndex(of: 2) {
            #expect(errors[refused].contains("still running"), "\(errors[refused])")
        }
        #expect(Self.count("GET /echo?step=first", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /status/200", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /delay/8000", in: sandbox) == 1, "\(Self.requests(sandbox))")
        #expect(Self.count("GET /echo?step=last", in: sandbox) == 1, "\(Self.requests(sandbox))")
        let runs = try await Self.runs(file)
        #expect(runs.count == 1 && runs.first?["state"] as? String == "succeeded", "\(runs)")
        #expect(try Self.integrity(scratch.path(".flow")) == "ok")
    }

    /// A state folder on a full disk, with and without a journal already in it: exit 2 naming the
    /// folder and the disk, before any request. Needs root to mount a small tmpfs.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullStateFolderStopsTheRunBeforeAnyRequest() async throws {
        let setup = try await JournalRunSetup.start("full.yaml", Self.slowWorkflow)
        defer { setup.stop() }
        let (scratch, sandbox, file) = (setup.scratch, setup.sandbox, setup.file)
        let environment = ["GATE": "200", "MS": "0"]
        for existing in [false, true] {
            let disk = scratch.path("disk-\(existing)")
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            try #require(Self.shell("mount -t tmpfs -o size=256k tmpfs '\(disk)'"), "mount a tmpfs on \(disk)")
            defer { Self.shell("umount '\(disk)'") }
            let state = disk + "/.flow"
            if existing {
                let first = try await FlowProcess.run(["run", file, "--state-dir", state], environment: environment)
                #expect(first.exitCode == 0, "\(first.stderr)")
            }
            let before = Self.requests(sandbox).count
            // Fill the disk to the last byte.
            Self.shell("dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null")
            let outcome = try await FlowProcess.run(["run", file, "--state-dir", state], environment: environment)
            #expect(outcome.exitCode == 2, "\(outcome.stdout)\n\(outcome.stderr)")
            #expect(outcome.stderr.contains(disk) && outcome.stderr.contains("no space left"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("--no-journal"), "\(outcome.stderr)")
            #expect(Self.requests(sandbox).count == before, "nothing sent: \(Self.requests(sandbox))")
        }
    }

    /// Runs a command through /bin/sh; whether it exited 0.
    @discardableResult
    static func shell(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
