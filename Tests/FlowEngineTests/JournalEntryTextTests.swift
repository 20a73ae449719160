import FlowDSL
import Testing

@testable import FlowEngine

/// The journal's texts written as bytes (`JournalEntryText`) are the texts the `Value` path writes,
/// byte for byte: a resumed run and `flow runs show` read what they always read.
@Suite struct JournalEntryTextTests {
    static let odd = "a/b \"q\" \\ \u{0}\u{1f}\u{7f} é 😀 \u{2028}"
    static let values: [Value] = [
        .null, .bool(true), .number(3), .number(-0.5), .number(2, float: true), .number(.nan), .string(odd),
        .number(-7), .number(-0.0), .number(0), .number(1e300), .number(9_007_199_254_740_994), .number(-.infinity),
        .number(123_456_789_012),
        .array([.number(1), .string("x"), .object([:])]), .object(["b": .number(1), "a": .object(["é": .null])]),
    ]

    /// What the `Value` path writes for `record`.
    private func valueText(_ record: StepRecord<StepResult>) -> String {
        StepRecordsFile.encode(record, masker: .none).jsonText
    }

    private func items() -> [ItemResult] {
        Self.values.enumerated().map { index, value in
            ItemResult(
                item: value, state: [.succeeded, .failed, .cancelled, .skipped][index % 4],
                outputs: index % 3 == 0 ? [:] : ["z": value, "a": .number(Double(index)), Self.odd: .string(Self.odd)],
                error: index % 2 == 0 ? nil : "item \(index) failed: \(Self.odd)", attempts: index)
        }
    }

    @Test func aForEachStepsEntryIsTheValuePathsText() {
        var record = StepRecord<StepResult>(id: "each", state: .succeeded)
        record.output = StepResult(
            result: .object([:]), outputs: ["names": .array(Self.values), Self.odd: .null], attempts: 9,
            items: items())
        #expect(JournalEntry.encode(record, masker: .none) == .json(valueText(record)))

        // A failed one keeps its items in its error, and its message.
        var failed = StepRecord<StepResult>(id: "each", state: .failed)
        failed.error = ForEachFailure(
            message: "step 'each' item 1 failed: \(Self.odd)",
            location: SourceLocation(file: "w.yaml", line: 3, column: 5),
            partial: StepResult(result: .object([:]), outputs: [:], attempts: 2, items: items()))
        failed.failureIgnored = true
        #expect(JournalEntry.encode(failed, masker: .none) == .json(valueText(failed)))
    }

    @Test func otherEntriesAreTheValuePathsText() {
        var record = StepRecord<StepResult>(id: "race", state: .succeeded)
        record.winner = "b \"2\""
        record.output = StepResult(result: .object([:]), outputs: ["v": .object(["k": .array([])])], attempts: 1)
        #expect(JournalEntry.encode(record, masker: .none) == .json(valueText(record)))
        var failed = StepRecord<StepResult>(id: "get", state: .failed)
        failed.error = StepError("status 500 \(Self.odd)", at: SourceLocation(file: "w.yaml", line: 1, column: 1))
        #expect(JournalEntry.encode(failed, masker: .none) == .json(valueText(failed)))
    }

    @Test func anItemsTextIsTheValuePathsText() {
        for value in Self.values {
            for outputs: [String: Value] in [[:], ["b": value, "a": .string(Self.odd)]] {
                // Without outputs, the item alone (journal format 5).
                let object: [String: Value] =
                    outputs.isEmpty ? ["item": value] : ["item": value, "outputs": .object(outputs)]
                #expect(PriorItem(item: value, outputs: outputs).jsonText == Value.object(object).jsonText)
                let back = PriorItem(jsonText: PriorItem(item: value, outputs: outputs).jsonText)
                #expect(back != nil)
                if outputs.isEmpty { #expect(back?.outputs == [:]) }
            }
        }
    }
}
