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
