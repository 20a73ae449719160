import Foundation
import Testing

/// The event lines `flow run` prints, exactly: the event printer builds them byte by byte (for speed),
/// so every field, its order and its escaping are checked here against what a reader expects.
@Suite struct EventPrinterTests {
    private func write(_ yaml: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-e2e-\(UUID()).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A command printing characters JSON escapes, and a failure under `continue-on-error`.
    private let workflow = #"""
        version: 1
        steps:
          talk:
            run: "printf '\"quoted\" back\\\\slash\\ttab\\001ctl é ✓\\n'"
          broken:
            needs: talk
            run: "exit 4"
            continue-on-error: true
        """#

    /// Replaces what changes from run to run, after checking its form.
    private func normalized(_ line: Substring, pattern: String, placeholder: String) -> String {
        var text = String(line)
        while let range = text.range(of: pattern, options: .regularExpression) {
            text.replaceSubrange(range, with: placeholder)
        }
        return text
    }

    @Test func jsonLinesHaveSortedKeysEscapedValuesAndExactTimes() async throws {
        let file = try write(workflow)
        let outcome = try await FlowProcess.run(["run", file, "--log-format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }.map { line in
            normalized(
                Substring(
                    normalized(
                        line, pattern: #""time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z""#,
                        placeholder: #""time":"T""#)),
                pattern: #""duration":[0-9]+\.[0-9]{3}"#, placeholder: #""duration":D"#)
        }
        let expected = [
            #"{"event":"started","step":"talk","time":"T"}"#,
            #"{"event":"output","line":"\"quoted\" back\\slash\ttab\u0001ctl é ✓","step":"talk","stream":"stdout","time":"T"}"#,
            #"{"duration":D,"event":"finished","state":"succeeded","step":"talk","time":"T"}"#,
            #"{"event":"started","step":"broken","time":"T"}"#,
            #"{"duration":D,"error":"the command exited with code 4","event":"finished","location":"\#(file):7:5","state":"failed","step":"broken","time":"T"}"#,
            // The summary is a JSON line too; a failure under continue-on-error does not fail the run.
            #"{"cancelled":0,"duration":D,"event":"summary","failed":1,"failures":[{"error":"the command exited with code 4","location":"\#(file):7:5","step":"broken"}],"outcome":"succeeded","skipped":0,"succeeded":1,"time":"T"}"#,
        ]
        #expect(lines.sorted() == expected.sorted())
        // Every line of the stream is JSON (no plain text mixed in), and a reader parses it back.
        for line in outcome.stdout.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if line.contains(#""event":"output""#) {
                #expect(object?["line"] as? String == "\"quoted\" back\\slash\ttab\u{01}ctl é ✓")
            }
            if line.contains(#""event":"finished""#) {
                #expect(object?["duration"] is Double, "durations are JSON numbers: \(line)")
            }
        }
    }

    /// A log larger than the output's 64 KiB buffer (written whole as it fills) comes out
    /// complete and in order: every step's start before its end, each line one JSON object; a
    /// skipped step's end has no duration.
    @Test func aLongJSONLogArrivesWholeAndInOrder() async throws {
        var yaml = "version: 1\nsteps:\n"
        let count = 1_500
        for index in 0..<count {
            let needs = index == 0 ? "" : ", needs: [step_with_a_long_name_\(index - 1)]"
            yaml += "  step_with_a_long_name_\(index): { sleep: 0s\(needs) }\n"
        }
        yaml += "  never: { run: \"exit 1\", needs: [step_with_a_long_name_\(count - 1)], if: \"failure()\" }\n"
        let outcome = try await FlowProcess.run(["run", try write(yaml), "--log-format", "json"])
        #expect(outcome.exitCode == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.utf8.count > 3 * 64 << 10)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.count == 2 * count + 2)
        var expected: [String] = []
        for index in 0..<count {
            expected += ["started step_with_a_long_name_\(index)", "finished step_with_a_long_name_\(index)"]
        }
        expected += ["finished never", "summary "]
        var seen: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = object["event"] as? String ?? "?"
            seen.append("\(event) \(object["step"] as? String ?? "")")
            if object["step"] as? String == "never" {
                #expect(object["state"] as? String == "skipped")
                #expect(object["duration"] == nil, "a step that did not run has no duration: \(line)")
            }
        }
        #expect(seen == expected)
    }

    @Test func plainLinesCarryTimeStepStateAndDuration() async throws {
        let file = try write(workflow)
        let outcome = try await FlowProcess.run(["run", file])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }.map { line in
            normalized(
                Substring(
                    normalized(
                        line, pattern: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z "#,
                        placeholder: "T ")), pattern: #" in [0-9]+\.[0-9]{2}s"#, placeholder: " in Ds")
        }
        let expected = [
            "T [talk] started (run)",
            "T [talk] | \"quoted\" back\\slash\ttab\u{01}ctl é ✓",
            "T [talk] succeeded in Ds",
            "T [broken] started (run)",
            "T [broken] failed in Ds: the command exited with code 4 (\(file):7:5) [continue-on-error]",
        ]
        #expect(lines.sorted() == expected.sorted())
        // The timestamp is now, in UTC.
        let stamp = outcome.stdout.prefix(19)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let date = try #require(formatter.date(from: String(stamp)))
        #expect(abs(date.timeIntervalSinceNow) < 60)
    }
}
