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

    /// Awkward texts: every byte JSON escapes, DEL, non-ASCII, emoji (a family is one Character of
    /// several scalars), line separators, and long texts with escapes at every position.
    private static let awkward: [String] = {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        var texts = [
            "", "plain", "\"", "\\", "a\"b\\c", controls, "\u{7f}", "é", "日本語", "😀", "👩‍👩‍👧", "e\u{301}",
            "\u{2028}\u{2029}", "a/b</script>", "tab\there\r\n", "\u{0}x\u{0}", "\u{1b}]0;title\u{7}",
        ]
        let piece = "\"\\\n\u{1}é😀x"
        for length in [15, 16, 17, 31, 32, 33, 100] { texts.append(String(repeating: "a", count: length)) }
        for shift in 0..<8 { texts.append(String(repeating: "b", count: shift) + String(repeating: piece, count: 40)) }
        return texts
    }()

    /// The report as the writer hands it on in pieces (the file is written from them) is the text
    /// `JSONEncoder` wrote, whatever the size of the pieces, with escapes and multi-byte characters
    /// cut across them.
    @Test func writtenInPiecesTheReportIsTheSameText() throws {
        let texts = Self.awkward
        let outputs = Dictionary(
            uniqueKeysWithValues: texts.enumerated().map { ("k\($0.offset)" + $0.element, Value.string($0.element)) })
        var step = StepReport(
            id: "each", name: texts.joined(), kind: "sleep", location: "w.yaml:1:1", state: .failed,
            outputs: outputs, error: texts.joined(separator: "\n"))
        step.items = ItemReports(
            texts.enumerated().map { index, text in
                ItemReport(
                    id: "each[\(index)]", item: .array([.string(text), .object([text: .string(text)])]),
                    state: index.isMultiple(of: 2) ? .succeeded : .failed,
                    outputs: index.isMultiple(of: 3) ? [:] : ["o": .string(text)],
                    error: index.isMultiple(of: 2) ? nil : text)
            })
        let report = RunReport(
            workflow: texts.joined(), file: "w.yaml", outcome: .failed, startedAt: "t", durationSeconds: 1,
            steps: [step], setupError: texts.last)
        let expected = Array(try encoderText(report).utf8)
        for size in [1, 16, 17, 31, 64, 100, 4096, 1 << 16] {
            var pieces: [[UInt8]] = []
            report.writeJSON(bufferSize: size) { pieces.append(Array($0)) }
            #expect(pieces.joined().elementsEqual(expected), "pieces of \(size) bytes")
            #expect(!pieces.contains { $0.isEmpty })
        }
        #expect(report.jsonBytes() == expected)
    }

    /// A report's items made from a step's item results (what a run's report holds: each item's
    /// record made only when read) are written as the records they stand for: ids `step[index]`
    /// with the step's id escaped, items and outputs masked, errors as given, the text
    /// `JSONEncoder` wrote for the same records.
    @Test func itemsMadeFromResultsAreWrittenAsTheirRecords() throws {
        let masker = SecretMasker(values: ["hunter2"])
        // Keys are not masked (as before items were made when read): the test's keys hold no secret.
        let shown = { (text: String) in text.replacingOccurrences(of: "hunter2", with: SecretMasker.mask) }
        let texts = Self.awkward + ["hunter2", "a hunter2 b", "/hunter2/"]
        for stepID in ["each", "deploy/each", "q\"x\\y\u{1}é"] {
            let results = texts.enumerated().map { index, text in
                ItemResult(
                    item: index.isMultiple(of: 4)
                        ? .number(Double(index)) : .array([.string(text), .object([shown(text): .string(text)])]),
                    state: index.isMultiple(of: 2) ? .succeeded : .failed,
                    outputs: index.isMultiple(of: 3) ? [:] : ["o": .string(text), "n": .number(1)],
                    error: index.isMultiple(of: 2) ? nil : shown(text), attempts: 1)
            }
            let records = texts.enumerated().map { index, text in
                ItemReport(
                    id: "\(stepID)[\(index)]",
                    item: index.isMultiple(of: 4)
                        ? .number(Double(index))
                        : .array([.string(shown(text)), .object([shown(text): .string(shown(text))])]),
                    state: index.isMultiple(of: 2) ? .succeeded : .failed,
                    outputs: index.isMultiple(of: 3) ? [:] : ["o": .string(shown(text)), "n": .number(1)],
                    error: index.isMultiple(of: 2) ? nil : shown(text))
            }
            let lazy = ItemReports(step: stepID, results: results, masker: masker)
            #expect(Array(lazy) == records)
            var step = StepReport(id: stepID, kind: "sleep", location: "w.yaml:1:1", state: .failed)
            step.items = lazy
            let report = RunReport(
                workflow: "w", file: "w.yaml", outcome: .failed, startedAt: "t", durationSeconds: 1, steps: [step])
            step.items = ItemReports(records)
            let made = RunReport(
                workflow: "w", file: "w.yaml", outcome: .failed, startedAt: "t", durationSeconds: 1, steps: [step])
            #expect(report == made)
            #expect(try report.jsonText() == (try encoderText(made)))
            #expect(!(try report.jsonText()).contains("hunter2"))
        }
    }

    /// A string written from a prefix, a number and a suffix (an item's id) is the string of their
    /// concatenation.
    @Test func aStringOfPrefixNumberAndSuffixIsWrittenAsTheirConcatenation() {
        for prefix in Self.awkward {
            for number in [0, 7, 10, 99_999, -3, Int.max, Int.min + 1] {
                var parts = JSONWriter(pretty: false)
                parts.string(prefix, number, "]")
                var whole = JSONWriter(pretty: false)
                whole.string(prefix + String(number) + "]")
                #expect(parts.bytes == whole.bytes, "\(prefix.debugDescription) \(number)")
            }
        }
    }

    /// A string value through the writer's own buffer is escaped as the shared escaper
    /// (`JSONWriter.appendString`, which `Value.jsonText` and the event log use) and `JSONEncoder`
    /// escape it.
    @Test func stringsAreEscapedAsTheSharedEscaperAndJSONEncoderEscapeThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for text in Self.awkward {
            var writer = JSONWriter(pretty: false)
            writer.string(text)
            var shared: [UInt8] = []
            JSONWriter.appendString(text, to: &shared)
            #expect(writer.bytes == shared, "\(text.debugDescription)")
            #expect(writer.bytes == Array(try encoder.encode(text)), "\(text.debugDescription)")
            #expect(try Value(jsonText: writer.text) == .string(text))
        }
    }

    /// The writer scans eight bytes at a time: each byte JSON escapes, and its neighbours that it
    /// does not, at each place in and around a word, is written as the shared escaper writes it.
    @Test func everyEscapeAtEveryPlaceOfAWordIsWrittenAsTheSharedEscaperWritesIt() {
        let special = (0..<0x20).map { UInt8($0) } + [UInt8(ascii: "\""), UInt8(ascii: "\\")]
        let near: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x1F + 0x80, 0x22 + 0x80, 0x5C + 0x80]
        for byte in special + near {
            for place in 0..<19 {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: 19)
                bytes[place] = byte
                // A byte of 0x80 or above as the lead of a two-byte character, so the text is UTF-8.
                if byte >= 0x80 {
                    bytes[place] = 0xC2
                    bytes.insert(byte, at: place + 1)
                }
                let text = String(decoding: bytes, as: UTF8.self)
                var writer = JSONWriter(pretty: false)
                writer.string(text)
                var shared: [UInt8] = []
                JSONWriter.appendString(text, to: &shared)
                #expect(writer.bytes == shared, "byte \(byte) at \(place)")
            }
        }
    }
}
