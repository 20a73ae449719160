import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@testable import FlowJournal

/// A tail of a run's step changes (`Journal.addTail`): kept by the recorder, taken by the journal
/// under its own lock when it cuts a batch and before it records any other change, so the tail's
/// changes keep their place among the others, as if each had been recorded at once.
@Suite("Journal tail")
struct JournalTailTests {
    /// Items' ends a test's tail holds, in order.
    private final class Ends: Sendable {
        let held = LockedBox<[Int]>([])

        /// What the tail gives the journal: the ends held, to encode later.
        func take() -> (@Sendable (inout JournalStepLog) -> Void)? {
            let items = held.withLock { ends in
                defer { ends = [] }
                return ends
            }
            guard !items.isEmpty else { return nil }
            return { log in
                for item in items {
                    log.addItemFinished(
                        step: "each", item: item, state: .succeeded, attempts: 1, startedAt: nil,
                        finishedAt: Date(timeIntervalSince1970: 1_000), wholeNumber: Int64(item))
                }
            }
        }
    }

    private func begin(_ journal: Journal) throws -> String {
        try journal.beginRun(NewRun(file: "/w/t.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
    }

    /// Every change of the run's log cells, in the order written: (tag, step, item).
    private func changes(_ journal: Journal, run: String) throws -> [String] {
        let cells = try journal.reading { db in
            try Data.fetchAll(db, sql: "SELECT changes FROM step_log WHERE run_id = ? ORDER BY seq", arguments: [run])
        }
        var out: [String] = []
        for cell in cells {
            var decoder = StepLogDecoder([UInt8](cell))
            while let change = try decoder.next() {
                switch change {
                case .started(let key, _, _): out.append("started \(key.step) \(key.item ?? -1)")
                case .finished(let key, _, _, _, _, _, _): out.append("finished \(key.step) \(key.item ?? -1)")
                case .unsafeSend(let key, _): out.append("send \(key.step) \(key.item ?? -1)")
                case .transfer(let key, _, _, _, _): out.append("transfer \(key.step) \(key.item ?? -1)")
                }
            }
        }
        return out
    }

    @Test(
        "a change recorded after a tail's changes follows them: a send after an item's end, a step's end after its items'"
    )
    func order() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        let ends = Ends()
        journal.addTail(run: run) { ends.take() }
        journal.record(.unsafeSend(run: run, step: "each", item: 0, at: Date()))
        ends.held.withLock { $0 += [0, 1] }
        // Item 0's send is still open at its end: recorded again after it.
        journal.record(.unsafeSend(run: run, step: "each", item: 0, at: Date()))
        ends.held.withLock { $0 += [2] }
        journal.recordStepFinished(
            run: run, step: "each", item: nil, state: .succeeded, attempts: 1, startedAt: nil, finishedAt: Date(),
            outputs: .stateOnly, error: nil)
        try await journal.flushed()
        #expect(
            try changes(journal, run: run) == [
                "send each 0", "finished each 0", "finished each 1", "send each 0", "finished each 2",
                "finished each -1",
            ])
        // The send after the end leaves item 0's outcome in doubt, as a send recorded at once would.
        let item0 = try #require(try journal.run(id: run)).steps.first { $0.item == 0 }
        #expect(item0?.unsafeInFlight == true)
        #expect(try journal.run(id: run)?.steps.first { $0.item == 1 }?.unsafeInFlight == false)
    }

    @Test(
        "a tail's changes are written with nothing else recorded once it wakes the journal, and a batch holds them all")
    func wakes() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        try await journal.flushed()
        let before = journal.transactionsCommitted
        let ends = Ends()
        journal.addTail(run: run) { ends.take() }
        ends.held.withLock { $0 += Array(0..<2_500) }
        journal.wake(now: true)
        // Bounded: at once in principle; 5 s for a loaded machine.
        let deadline = Date().addingTimeInterval(5)
        while try journal.run(id: run)?.steps.count != 2_500, Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try journal.run(id: run)?.steps.count == 2_500)
        try await journal.flushed()
        #expect(journal.transactionsCommitted == before + 1)
        #expect(try changes(journal, run: run) == (0..<2_500).map { "finished each \($0)" })
    }

    @Test("a finished run's tail is taken one last time and never asked again: a later run's changes do not reach it")
    func finishedRunsTailGoes() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let first = try begin(journal)
        let asked = LockedBox(0)
        let ends = Ends()
        journal.addTail(run: first) {
            asked.withLock { $0 += 1 }
            return ends.take()
        }
        ends.held.withLock { $0 += [0, 1] }
        journal.record(.runFinished(run: first, state: .succeeded, at: Date()))
        let askedAtTheEnd = asked.withLock { $0 }
        #expect(askedAtTheEnd >= 1)
        // Another run of the same process (a FlowKit host's next run).
        let second = try begin(journal)
        journal.record(.unsafeSend(run: second, step: "other", item: nil, at: Date()))
        journal.record(.runFinished(run: second, state: .succeeded, at: Date()))
        try await journal.flushed()
        #expect(asked.withLock { $0 } == askedAtTheEnd)
        #expect(try changes(journal, run: first) == ["finished each 0", "finished each 1"])
        #expect(try journal.run(id: first)?.run.state == .succeeded)
    }

    @Test("an item's end written from its number is the same bytes as with its text, for every sign and length")
    func itemNumberBytes() {
        let start = Date(timeIntervalSince1970: 1_764_000_000.25)
        for number: Int64 in [0, 7, 9, 10, 99_999, -1, -10, Int64.max, Int64.min] {
            for state: JournalStepState in [.succeeded, .failed] {
                var fromText = StepLogEncoder()
                fromText.addFinished(
                    step: "tick", item: 42, state: state, attempts: 3, startedAt: start, finishedAt: start,
                    outputs: .json(#"{"item":\#(number)}"#), error: nil)
                var fromNumber = StepLogEncoder()
                fromNumber.addItemFinished(
                    step: "tick", item: 42, state: state, attempts: 3, startedAt: start, finishedAt: start,
                    wholeNumber: number)
                #expect(fromNumber.bytes == fromText.bytes, "\(number) \(state)")
            }
        }
    }
}
