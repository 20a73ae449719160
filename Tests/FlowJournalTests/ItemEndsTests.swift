import Foundation
import Testing

@testable import FlowJournal

/// `itemEnds` changes (journal format 6): a `for-each` step's items' ends whose outputs are
/// `{"item":N}`, in a few bytes each, read back exactly as the `finishedCoded` change each would
/// otherwise have been.
@Suite("Step log item ends")
struct ItemEndsTests {
    /// One item's end as a tail gives it.
    struct End {
        var step = "tick"
        var item: Int
        var state = JournalStepState.succeeded
        var attempts = 1
        var startedAt: Date?
        var finishedAt: Date
        var number: Int64
    }

    /// A change as read, every field comparable (dates by their bits: exact, not to the second).
    struct Read: Equatable {
        let step: String
        let item: Int?
        let state: JournalStepState
        let attempts: Int
        let startedAt: UInt64?
        let finishedAt: UInt64
        let outputs: JournalOutputs
        let error: String?
    }

    static func read(_ bytes: [UInt8], statesOnly: Bool = false) throws -> [Read] {
        var decoder = StepLogDecoder(bytes, statesOnly: statesOnly)
        var out: [Read] = []
        while let change = try decoder.next() {
            // Other changes (starts) are counted by the test that writes them.
            guard
                case .finished(
                    let key, let state, let attempts, let startedAt, let finishedAt, let outputs, let error) = change
            else { continue }
            out.append(
                Read(
                    step: key.step, item: key.item, state: state, attempts: attempts,
                    startedAt: startedAt?.timeIntervalSince1970.bitPattern,
                    finishedAt: finishedAt.timeIntervalSince1970.bitPattern, outputs: outputs, error: error))
        }
        return out
    }

    /// The ends written as `itemEnds` changes (what a tail writes) and as `finishedCoded` ones;
    /// `other` written to both after each end whose index is in `otherAfter`.
    static func both(_ ends: [End], other: JournalChange? = nil, otherAfter: Set<Int> = []) -> (
        compact: [UInt8], coded: [UInt8]
    ) {
        var compact = StepLogEncoder()
        var coded = StepLogEncoder()
        for (index, end) in ends.enumerated() {
            compact.addItemEnd(
                step: end.step, item: end.item, state: end.state, attempts: end.attempts, startedAt: end.startedAt,
                finishedAt: end.finishedAt, wholeNumber: end.number)
            coded.addItemFinished(
                step: end.step, item: end.item, state: end.state, attempts: end.attempts, startedAt: end.startedAt,
                finishedAt: end.finishedAt, wholeNumber: end.number)
            if let other, otherAfter.contains(index) {
                compact.add(other)
                coded.add(other)
            }
        }
        compact.closeItemEnds()
        return (compact.bytes, coded.bytes)
    }

    @Test("a run of 1,000 items' ends reads back exactly as the coded changes, in under a quarter of their bytes")
    func longRun() throws {
        let start = 1_795_000_000.123456
        var ends: [End] = []
        for item in 0..<1_000 {
            let began = start + Double(item) * 0.000_003_1
            ends.append(
                End(
                    item: item, startedAt: Date(timeIntervalSince1970: began),
                    finishedAt: Date(timeIntervalSince1970: began + 0.000_001_7), number: Int64(item)))
        }
        let (compact, coded) = Self.both(ends)
        #expect(try Self.read(compact) == Self.read(coded))
        #expect(try Self.read(compact, statesOnly: true) == Self.read(coded, statesOnly: true))
        #expect(try Self.read(compact).count == 1_000)
        #expect(compact.count * 4 < coded.count, "\(compact.count) bytes against \(coded.count)")
    }

    @Test("ends of any order, state, attempts, number and dates read back exactly, among other changes")
    func everyShape() throws {
        let at = Date(timeIntervalSince1970: 1_795_000_000.5)
        let ends: [End] = [
            End(item: 5, startedAt: nil, finishedAt: at, number: 5),
            End(item: 3, attempts: 0, startedAt: at, finishedAt: at, number: -7),
            End(item: 3, state: .failed, attempts: 300, startedAt: at - 86_400 * 400, finishedAt: at, number: .max),
            End(item: 1_000_000, state: .cancelled, startedAt: at + 5, finishedAt: at, number: .min),
            End(step: "é-步骤", item: 0, startedAt: at, finishedAt: Date(timeIntervalSince1970: 0), number: 0),
            End(
                step: "é-步骤", item: 1, state: .pending, startedAt: Date(timeIntervalSince1970: -5), finishedAt: at,
                number: 42),
            End(
                item: 0, startedAt: Date(timeIntervalSince1970: -1e300), finishedAt: Date(timeIntervalSince1970: 1e300),
                number: 1),
            End(item: .max - 1, startedAt: at, finishedAt: at, number: -1),
        ]
        // Other changes between the ends: each ends the change being written.
        let other = JournalChange.stepStarted(run: "r", step: "next", item: 2, attempt: 1, at: at)
        let (compact, coded) = Self.both(ends, other: other, otherAfter: [1, 5])
        var decoder = StepLogDecoder(compact)
        var starts = 0
        while let change = try decoder.next() {
            if case .started = change { starts += 1 }
        }
        #expect(starts == 2)
        let finishes = try Self.read(compact)
        #expect(finishes == (try Self.read(coded)))
        #expect(try Self.read(Self.both(ends).compact) == finishes)
        #expect(finishes.map(\.item) == ends.map(\.item))
        #expect(finishes[2].outputs == .json(#"{"item":9223372036854775807}"#))
        #expect(finishes[3].outputs == .json(#"{"item":-9223372036854775808}"#))
        #expect(compact.count < coded.count)
    }

    @Test("a cut-short or damaged run of items' ends is reported as damage, never a crash")
    func damage() throws {
        let at = Date(timeIntervalSince1970: 1_795_000_000.5)
        var log = StepLogEncoder()
        for item in 0..<3 {
            log.addItemEnd(
                step: "tick", item: item, state: .succeeded, attempts: 1, startedAt: at, finishedAt: at,
                wholeNumber: Int64(item))
        }
        log.closeItemEnds()
        let whole = log.bytes
        #expect(try Self.read(whole).count == 3)
        for cut in 1..<whole.count {
            #expect(throws: StepLogDamage.self) { try Self.read(Array(whole.prefix(cut))) }
        }
        var badState = whole
        badState[6] = 200
        #expect(throws: StepLogDamage.self) { try Self.read(badState) }
        var tooLong = Array(whole.prefix(7))
        tooLong += Array(repeating: 0xFF, count: 11) + [0]
        #expect(throws: StepLogDamage.self) { try Self.read(tooLong) }
    }
}
