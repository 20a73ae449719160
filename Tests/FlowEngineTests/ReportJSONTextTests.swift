import FlowDSL
import FlowEngine
import Foundation
import Testing

/// The JSON report is written by the project's `JSONWriter`, not `JSONEncoder`; its text must stay the
/// one `JSONEncoder` wrote (pretty, sorted keys, slashes unescaped) byte for byte, so readers and
/// diffs of reports see no change.
@Suite struct ReportJSONTextTests {
    private func encoderText(_ report: RunReport) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }

    @Test func everyFieldIsWrittenAsJSONEncoderWroteIt() throws {
        let odd = "a/b \"q\" \\ \u{0}\u{1f}\u{7f}\u{8}\u{c}\r\n\t é 😀 \u{2028}"
        let outputs: [String: Value] = [
            "z": .number(100), "a10": .number(0.1), "a2": .number(1e20), "B": .number(-0.0), "_": .null,
            "big": .number(1.7976931348623157e308), "tiny": .number(.leastNonzeroMagnitude), "third": .number(1.0 / 3),
            "neg": .number(-12.5), "nan": .number(.nan), "inf": .number(-.infinity), "flag": .bool(false),
            "list": .array([.number(1), .string(odd), .array([]), .object([:]), .array([.null])]),
            "empty": .object([:]), "nested": .object(["y": .object(["x": .array([.bool(true)])]), "é": .string(odd)]),
            odd: .string(odd),
        ]
        let report = RunReport(
            workflow: odd, file: "dir/w.yaml", outcome: .cancelled, startedAt: "2026-11-27T14:00:00.123Z",
            durationSeconds: 12.0,
            steps: [
                StepReport(
                    id: "all", name: odd, kind: "http", group: "g", location: "w.yaml:3:3", state: .failed,
                    startedAtSeconds: 0.000123, durationSeconds: 1e-7, attempts: 3, outputs: outputs, winner: "w",
                    error: odd, request: "GET https://x/y?a=1&b=2", repetitions: 7, failureIgnored: true),
                StepReport(id: "bare", kind: "run", location: "w.yaml:9:3", state: .skipped),
                {
                    var each = StepReport(
                        id: "each", kind: "sleep", location: "w.yaml:12:3", state: .succeeded, startedAtSeconds: 0,
                        durationSeconds: 0.25, attempts: 1)
                    each.items = [
                        ItemReport(id: "each[0]", item: .number(0), state: .succeeded),
                        ItemReport(
                            id: "each[1]", item: .object(["k": .string(odd)]), state: .failed, outputs: outputs,
                            error: odd),
                        ItemReport(id: "each[2]", item: .array([]), state: .skipped, outputs: ["o": .null]),
                    ]
                    return each
                }(),
                {
                    var none = StepReport(id: "none", kind: "sleep", location: "w.yaml:20:3", state: .succeeded)
                    none.items = []
                    return none
                }(),
            ], setupError: odd)
        #expect(try report.jsonText() == (try encoderText(report)))
        let plain = RunReport(
            workflow: "w", file: "w.yaml", outcome: .succeeded, startedAt: "t", durationSeconds: 0.5, steps: [])
        #expect(try plain.jsonText() == (try encoderText(plain)))
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesADouble() throws {
        // Whole numbers below 10^15 take a shorter path than `Double.description`: the edges of
        // that path are here too.
        var numbers: [Double] = [
            0, 1, -1, 0.5, 1e15, 1e16, 18_014_398_509_481_984, 123_456_789.123, 1e-5, 2.5e-300, -0.0,
            999_999_999_999_999, -999_999_999_999_999, 1e15 - 0.5, 1e15 + 1, 99_999, 100_000, -100_000,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            numbers.append(Double(bitPattern: generator.next()))
            numbers.append(Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000)
            numbers.append(Double(Int64.random(in: -2_000_000_000_000_000...2_000_000_000_000_000, using: &generator)))
            numbers.append(Double(Int.random(in: -100_000...100_000, using: &generator)))
        }
        let report = RunReport(
            workflow: "w", file: "w.yaml", outcome: .succeeded, startedAt: "t", durationSeconds: 1,
            steps: [
                StepReport(
                    id: "n", kind: "run", location: "w.yaml:1:1", state: .succeeded,
                    outputs: ["numbers": .array(numbers.map { .number($0) })])
            ])
        #expect(try report.jsonText() == (try encoderText(report)))
        #expect(report.jsonBytes() == Array(try encoderText(report).utf8))
    }
}
