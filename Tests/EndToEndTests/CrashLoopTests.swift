import FlowSandbox
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `kill -9` at many moments of a run, each followed by `--resume`: the journal always opens, a
/// keyed POST always carries the same key, uploads end byte-exact without a second creation, and
/// a step that succeeded is never sent again.
@Suite(.serialized) struct CrashLoopTests {
    @Test(.timeLimit(.minutes(3))) func killNineAtThirtyMomentsAndResumeEachTime() async throws {
        let scratch = try ResumeRunTests.Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        var bytes = [UInt8](repeating: 0, count: 384 * 1024)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 11) }
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.path("a.bin")))
        try Data(bytes.reversed()).write(to: URL(fileURLWithPath: scratch.path("b.bin")))
        let started = ContinuousClock.now
        var kills = 0
        var round = 0
        // Each round is a new run of its own file; rounds go on until 30 kills have landed.
        while kills < 30, ContinuousClock.now - started < .seconds(50) {
            round += 1
            kills += try await killAndResume(round: round, scratch: scratch, sandbox: sandbox)
        }
        #expect(kills >= 30, "kills: \(kills)")
        #expect(ContinuousClock.now - started < .seconds(60))
        let requests = sandbox.events().map { "\($0.method) \($0.path)" }
        let creations = requests.filter { $0.hasPrefix("POST /uploads/tus") }.count
        // A tus upload is created again only when its session was never recorded (killed between
        // the creation and the journal's write): far fewer than the kills.
        #expect(creations <= round + kills / 3, "\(creations) creations in \(round) rounds")
    }

    /// One run killed at growing moments and resumed until it succeeds; the kills made.
    private func killAndResume(round: Int, scratch: ResumeRunTests.Scratch, sandbox: Sandbox) async throws -> Int {
        let file = try scratch.write(
            "crash-\(round).yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)" }
            steps:
              order:
                http:
                  method: POST
                  url: "/delay/60?round=\(round)&key=${{ idempotencyKey() }}"
                  headers: { Idempotency-Key: "${{ idempotencyKey() }}" }
                  json: { sku: A-1 }
              slow:
                needs: order
                http: { url: "/delay/150?step=slow" }
              tus:
                needs: order
                upload: { file: "\(scratch.path("a.bin"))", url: "/uploads/tus?pace-ms=40", protocol: tus, chunk-size: 32KiB }
                outputs: { location: "${{ result.location }}" }
              range:
                needs: order
                upload:
                  file: "\(scratch.path("b.bin"))"
                  url: "/uploads/cr/crash-\(round)?pace-ms=40"
                  protocol: content-range
                  chunk-size: 32KiB
              done:
                needs: [slow, tus, range]
                http: { url: "/echo?step=done&round=\(round)" }
            """)
        var kills = 0
        var resumes = 0
        var finished = false
        // A kill before the run was in the journal leaves nothing to resume: the next start is fresh.
        var fresh = true
        var delays = [30, 60, 90, 120, 160, 200, 250, 300, 350, 420]
        let done = { sandbox.events().contains { $0.path == "/echo?step=done&round=\(round)" } }
        while !finished {
            let arguments = ["run", file] + (fresh ? [] : ["--resume"])
            if kills < 12 {
                let child = try FlowChild(arguments)
                delays.append(delays.removeFirst())
                try await Task.sleep(for: .milliseconds(delays[0]))
                kill(child.pid, SIGKILL)
                let code = await child.exitCode(within: .seconds(10))
                kills += 1
                if !fresh { resumes += 1 }
                switch code {
                case 0?:
                    finished = true
                case 2? where child.errors.contains("nothing to resume"):
                    if done() { finished = true } else { fresh = true }
                case 2?:
                    Issue.record("exit 2: \(child.errors)")
                    finished = true
                default:
                    fresh = false
                }
            } else {
                let outcome = try await FlowProcess.run(arguments)
                resumes += 1
                // The last kill may have landed before the run was journaled (nothing was sent) or
                // after it had finished (all was sent): either way there is nothing to resume.
                if !fresh, outcome.exitCode == 2, outcome.stderr.contains("nothing to resume") {
                    if done() { finished = true } else { fresh = true }
                    continue
                }
                #expect(outcome.exitCode == 0, "\(outcome.stdout)\n\(outcome.stderr)")
                finished = true
            }
        }
        let requests = sandbox.events().map { "\($0.method) \($0.path)" }
        let keys = Set(requests.filter { $0.hasPrefix("POST /delay/60?round=\(round)&key=") })
        #expect(keys.count == 1, "one key for the order, however often it was sent: \(keys)")
        // The last step is a GET: safe to repeat, so a kill after the server answered it but before
        // the journal recorded the answer sends it once more on resume (as the issue asks). At most
        // once more per kill, and at least once.
        let finals = requests.filter { $0 == "GET /echo?step=done&round=\(round)" }.count
        #expect(
            finals >= 1 && finals <= 1 + kills, "\(finals) sends of the last step after \(kills) kills: \(requests)")
        // Both uploads byte-exact on the server.
        let tus = requests.last { $0.hasPrefix("PATCH /uploads/tus/") || $0.hasPrefix("HEAD /uploads/tus/") }
        let paths = [
            "/uploads/cr/crash-\(round)/info": "b.bin",
            (tus.map { String($0.split(separator: " ")[1]) } ?? "/uploads/tus/none") + "/info": "a.bin",
        ]
        for (path, name) in paths {
            let (body, _) = try await URLSession.shared.data(from: URL(string: sandbox.baseURL + path)!)
            let text = String(decoding: body, as: UTF8.self)
            let sha = try ResumeRunTests.sha256Hex(scratch.path(name))
            #expect(text.contains("\"complete\":true") && text.contains(sha), "\(name): \(text)")
        }
        return kills
    }
}
