import FlowDSL
import FlowEngine
import Testing

/// A step's result is one reference inside its record (issue 32): the record is copied into the
/// records table, the scheduler's node and every event, 10,000 times at bench/engine's DAG.
@Suite struct StepResultLayoutTests {
    /// Held inline, the result was about 100 bytes and its record about 200.
    @Test func aResultIsOneReferenceAndKeepsItsFields() {
        #expect(MemoryLayout<StepResult>.size == MemoryLayout<AnyObject>.size)
        #expect(MemoryLayout<StepResult?>.size == MemoryLayout<AnyObject>.size)
        let result = StepResult(
            result: .object(["status": .number(200)]), outputs: ["id": .string("42")], attempts: 3, items: [],
            repetitions: 2)
        let copy = result
        #expect(copy.result == .object(["status": .number(200)]))
        #expect(copy.outputs == ["id": .string("42")])
        #expect(copy.attempts == 3)
        #expect(copy.items?.isEmpty == true)
        #expect(copy.repetitions == 2)
        #expect(copy.request == nil)
    }

    /// The record's one-byte fields come after its words: placed between them, their padding
    /// made the record 112 bytes.
    @Test func aRecordTakesNoPaddingBetweenItsWords() {
        #expect(MemoryLayout<StepRecord<StepResult>>.stride <= 96)
    }

    /// Every zero wait without outputs finishes with the one shared result (no object a step).
    @Test func zeroWaitsShareOneResult() {
        #expect(StepResult.zeroWait.result == .object([:]))
        #expect(StepResult.zeroWait.outputs.isEmpty)
        #expect(StepResult.zeroWait.attempts == 1)
    }
}
