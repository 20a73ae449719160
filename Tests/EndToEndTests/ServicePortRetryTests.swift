import Foundation
import Testing

/// A service whose port flow picked and that could not bind it is started again on a fresh port
/// (and the run is given that port); a port the author wrote cannot move and fails as before.
@Suite struct ServicePortRetryTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-port-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The first number after `text` in `output`.
    private func number(after text: String, in output: String) -> Int? {
        guard let range = output.range(of: text) else { return nil }
        return Int(output[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func aServiceThatCannotBindItsPortIsStartedAgainOnAFreshOneAndTheStepsUseIt() async throws {
        // The first start fails as Python's servers do when the port was taken between flow
        // picking it and the service binding it; the second starts the sandbox on the port given.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("flow-port-marker-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        let file = try write(
            """
            version: 1
            services:
              web:
                run:
                  - bash
                  - -c
                  - |
                    if [ ! -e "$0" ]; then
                      echo "$1" > "$0"
                      echo "OSError: [Errno 98] Address already in use" >&2
                      exit 1
                    fi
                    exec "$2" sandbox --port "$1"
                  - "\(marker)"
                  - "${{ services.web.port }}"
                  - "${{ flow.executable }}"
                ready: { http: "${{ services.web.url }}/health" }
            defaults:
              http: { base-url: "${{ services.web.url }}" }
            steps:
              hello: { http: { url: /health } }
              port: { run: "echo port=$PORT", env: { PORT: "${{ services.web.port }}" } }
            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let first = try #require(
            number(after: "service web could not bind port ", in: outcome.stdout), "\(outcome.stdout)")
        let second = try #require(number(after: "; starting it again on port ", in: outcome.stdout))
        #expect(first != second)
        #expect(outcome.stdout.contains("(exited with code 1 before it was ready)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("(attempt 2 of 3)"))
        let tried = try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(tried == String(first), "the first start was given the first port")
        #expect(outcome.stdout.contains("ready on http://127.0.0.1:\(second)/health"), "\(outcome.stdout)")
        // The steps reached the service on its new port: base-url and services.web.port follow it.
        #expect(outcome.stdout.contains("port=\(second)"), "\(outcome.stdout)")
    }

    /// The repository, for `scripts/schema-check` and `schemas/`.
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["plain", "json"])
    func aServiceWhosePortAnotherProcessTookMovesAndTheServiceReadingItStartsAgainWithTheNewPort(
        logFormat: String
    ) async throws {
        // `api`'s first start is beaten to its port by another process (a listener started in its
        // own session, as anything on the machine could), so `flow sandbox` really fails to bind
        // it; `web` reads api's URL in its env and was started with the old one: it must be
        // stopped and started again with the port api ended on.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-port-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer {
            if let pid = try? String(contentsOfFile: folder + "/squatter.pid", encoding: .utf8),
                let number = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                kill(number, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
        // Listens on the port given, then says so by writing its pid; gone after a minute at most.
        try """
        import os, socket, sys, time
        s = socket.socket()
        s.bind(("127.0.0.1", int(sys.argv[1])))
        s.listen()
        open(sys.argv[2] + "/squatter.pid", "w").write(str(os.getpid()))
        time.sleep(60)
        """.write(toFile: folder + "/squatter.py", atomically: true, encoding: .utf8)
        let file = try write(
            """
            version: 1
            services:
              api:
                run:
                  - bash
                  - -c
                  - |
                    if [ ! -e "$0/api.first" ]; then
                      echo "$1" > "$0/api.first"
                      setsid python3 "$0/squatter.py" "$1" "$0" < /dev/null > /dev/null 2>&1 &
                      for _ in $(seq 200); do [ -s "$0/squatter.pid" ] && break; sleep 0.05; done
                    fi
                    exec "$2" sandbox --port "$1"
                  - "\(folder)"
                  - "${{ services.api.port }}"
                  - "${{ flow.executable }}"
                ready: { http: "${{ services.api.url }}/health" }
              web:
                run: echo "$UPSTREAM" >> "$FOLDER/web.starts" && exec "$FLOW" sandbox --port "$PORT"
                env:
                  UPSTREAM: "${{ services.api.url }}"
                  FOLDER: "\(folder)"
                  FLOW: "${{ flow.executable }}"
                  PORT: "${{ services.web.port }}"
                ready: { http: "${{ services.web.url }}/health" }
            steps:
              hello: { http: { url: "${{ services.api.url }}/health" } }
              port: { run: "echo api=$API", env: { API: "${{ services.api.port }}" } }
            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try await FlowProcess.run(["run", file, "--no-journal", "--log-format", logFormat])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        // A real listener held the port api was first given (its pid file is written once it listens).
        #expect(FileManager.default.fileExists(atPath: folder + "/squatter.pid"))
        let first: Int
        let second: Int
        if logFormat == "json" {
            let moved = try #require(
                outcome.stdout.split(separator: "\n").first { $0.contains(#""event":"moved""#) }, "\(outcome.stdout)")
            let event = try #require(try JSONSerialization.jsonObject(with: Data(moved.utf8)) as? [String: Any])
            first = try #require(event["from"] as? Int)
            second = try #require(event["to"] as? Int)
            #expect(event["restarting"] as? [String] == ["web"], "\(moved)")
            #expect(event["service"] as? String == "api")
            // The moved event, its `restarting` included, is documented in the events' schema.
            let events = folder + "/events.jsonl"
            try outcome.stdout.write(toFile: events, atomically: true, encoding: .utf8)
            let check = Process()
            check.executableURL = Self.repository.appendingPathComponent("scripts/schema-check")
            check.arguments = [
                "--lines", Self.repository.appendingPathComponent("schemas/events.schema.json").path, events,
            ]
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0, "events.jsonl does not match schemas/events.schema.json")
            #expect(outcome.stdout.contains(#""url":"http://127.0.0.1:\#(second)""#), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("api=\(second)"), "\(outcome.stdout)")
        } else {
            first = try #require(
                number(after: "service api could not bind port ", in: outcome.stdout), "\(outcome.stdout)")
            second = try #require(number(after: "; starting it again on port ", in: outcome.stdout))
            #expect(outcome.stdout.contains("(exited with code 1 before it was ready)"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("restarting service web, which reads its port"), "\(outcome.stdout)")
            #expect(
                outcome.stdout.contains("service api ready on http://127.0.0.1:\(second)/health"), "\(outcome.stdout)")
            #expect(outcome.stdout.contains("api=\(second)"), "\(outcome.stdout)")
        }
        #expect(first != second)
        let squatted = try String(contentsOfFile: folder + "/api.first", encoding: .utf8)
        #expect(squatted.trimmingCharacters(in: .whitespacesAndNewlines) == String(first))
        // Every start of web was given api's URL as it stood; the one left running has the new one.
        let starts = try String(contentsOfFile: folder + "/web.starts", encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(starts.last == "http://127.0.0.1:\(second)", "\(starts)")
        #expect(starts.allSatisfy { $0 == "http://127.0.0.1:\(first)" || $0 == "http://127.0.0.1:\(second)" })
    }

    @Test func aServiceThatNeverBindsIsTriedOnThreePortsThenFailsTheRun() async throws {
        let file = try write(
            """
            version: 1
            services:
              web:
                run: ["bash", "-c", "echo \\"Error: listen EADDRINUSE: 127.0.0.1:$0\\" >&2; exit 1", "${{ services.web.port }}"]
            steps:
              hello: { run: echo hello }
            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("(attempt 3 of 3)"), "\(outcome.stdout)")
        #expect(
            outcome.stderr.contains("service 'web' exited with code 1 before it was ready; tried 3 ports"),
            "\(outcome.stderr)")
        #expect(outcome.stdout.contains("[hello] skipped"))
    }

    @Test func aServiceOnAFixedPortThatCannotBindItFailsSayingItCannotMove() async throws {
        let file = try write(
            """
            version: 1
            services:
              fixed:
                run: ["bash", "-c", "echo 'OSError: [Errno 98] Address already in use' >&2; exit 1"]
                ready: { port: 9 }
            steps:
              hello: { run: echo hello }
            """)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let outcome = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(
            outcome.stderr.contains(
                "service 'fixed' exited with code 1 before it was ready; flow cannot start it on another port: "
                    + "its port is fixed in the workflow"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("Errno 98"))
        #expect(!outcome.stdout.contains("starting it again"))
    }
}
