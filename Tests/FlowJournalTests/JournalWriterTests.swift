import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@testable import FlowJournal

/// The writer thread: changes are batched into few transactions; a flush is answered once what was
/// recorded before it is committed, in the order flushes were asked, on the journal's own thread.
@Suite("Journal writer")
struct JournalWriterTests {
    private func begin(_ journal: Journal, file: String = "/w/flow.yaml") throws -> String {
        try journal.beginRun(NewRun(file: file, fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
    }

    private func finished(_ run: String, _ step: String, at: Date = Date()) -> JournalChange {
        .stepFinished(
            run: run, step: step, item: nil, state: .succeeded, attempts: 1, startedAt: at, finishedAt: at,
            outputs: .json("{}"), error: nil)
    }

    @Test("10,000 changes recorded at once are committed in a few transactions, not one each")
    func batching() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        for index in 0..<5_000 {
            journal.record(.stepStarted(run: run, step: "s\(index)", item: nil, attempt: 1, at: Date()))
            journal.record(finished(run, "s\(index)"))
        }
        try await journal.flushed()
        let detail = try #require(try journal.run(id: run))
        #expect(detail.steps.count == 5_000)
        #expect(detail.run.stepCounts == ["succeeded": 5_000])
        // The thread takes everything pending at once: at most one transaction per 1,000 changes
        // (the batch limit wakes it) and a few more for timing, far from 10,000.
        #expect(journal.transactionsCommitted >= 1)
        #expect(journal.transactionsCommitted <= 20, "\(journal.transactionsCommitted) transactions")
    }

    @Test("a change without a flush is committed within the batching window")
    func windowCommits() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        journal.record(.stepStarted(run: run, step: "alone", item: nil, attempt: 1, at: Date()))
        // Bounded: 20 ms in principle; 5 s for a loaded machine.
        let deadline = Date().addingTimeInterval(5)
        while try journal.run(id: run)?.steps.isEmpty != false, Date() < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(try journal.run(id: run)?.steps.map(\.step) == ["alone"])
        // The commit is visible to readers a moment before the thread counts it; a flush (with
        // nothing pending, so no batch of its own) is answered only after that count.
        try await journal.flushed()
        #expect(journal.transactionsCommitted == 1)
    }

    @Test("a batch source's changes come first in each batch; a wake writes them with nothing else pending")
    func batchSources() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        // Held starts, taken once each, as `RunRecording` gives them.
        let held = LockedStarts()
        journal.addBatchSource {
            held.take().map { .stepStarted(run: run, step: $0, item: nil, attempt: 1, at: start) }
        }
        // Nothing recorded: the wake alone makes the batch that writes the start.
        held.add("long")
        journal.wake()
        let written = await poll { (try? journal.run(id: run))?.steps.map(\.state) == [.running] }
        #expect(written)
        // Taken before the batch's changes: an unsafe send recorded after the held start stays marked.
        held.add("post")
        journal.record(.unsafeSend(run: run, step: "post", item: nil, at: start.addingTimeInterval(1)))
        try await journal.flushed()
        let post = try #require(try journal.run(id: run)?.steps.first { $0.step == "post" })
        #expect(post.unsafeInFlight && post.state == .running && post.startedAt == start)
    }

    @Test("flush callbacks come in order, on the journal's thread, after their changes are committed")
    func flushOrdering() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        // A second connection, as another process would read: it sees only what is committed.
        let reader = try #require(try Journal.openForReading(stateDirectory: folder.path))
        let seen = LockedList()
        for round in 0..<20 {
            for index in 0..<50 {
                journal.record(finished(run, "r\(round)-\(index)"))
            }
            journal.flush { error in
                let committed = (try? reader.run(id: run)?.steps.count) ?? -1
                seen.append((round, committed, journal.writer.isCurrentThread, error))
            }
        }
        try await journal.flushed()
        let calls = seen.items
        #expect(calls.map(\.round) == Array(0..<20))
        for call in calls {
            #expect(call.error == nil)
            #expect(call.onWriterThread)
            // Everything recorded before the flush is visible to another connection when it is answered.
            #expect(call.committed >= (call.round + 1) * 50, "round \(call.round) saw \(call.committed)")
        }
    }

    @Test("a change the database refuses (an unknown run) is dropped alone; the rest of its batch is kept")
    func refusedChange() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        let run = try begin(journal)
        journal.record(finished(run, "before"))
        journal.record(finished("20000101-000000-dead", "orphan"))
        journal.record(
            .transfer(run: "nope", step: "x", item: nil, kind: "tus", target: "t", bytesConfirmed: 1, fileIdentity: "f")
        )
        journal.record(finished(run, "after"))
        try await journal.flushed()
        #expect(try journal.run(id: run)?.steps.map(\.step).sorted() == ["after", "before"])
        #expect(try journal.run(id: "20000101-000000-dead") == nil)
    }

    @Test("flushAndWait returns once everything recorded is in the file")
    func flushAndWait() throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        let run = try begin(journal)
        for index in 0..<300 { journal.record(finished(run, "s\(index)")) }
        journal.record(.runFinished(run: run, state: .failed, at: Date()))
        try journal.flushAndWait()
        // A fresh connection (another process's view) sees all of it.
        let other = try Journal.open(stateDirectory: folder.path)
        defer { other.close() }
        let detail = try #require(try other.run(id: run))
        #expect(detail.steps.count == 300)
        #expect(detail.run.state == .failed)
        journal.close()
        // After close: records are ignored and a flush says the journal is closed.
        journal.record(finished(run, "late"))
        #expect(throws: JournalError.self) { try journal.flushAndWait() }
        #expect(try other.run(id: run)?.steps.count == 300)
    }
}

/// The journal's thread carries its name in the kernel (what `top -H` and crash reports show):
/// Foundation's `Thread.name` set inside the new thread did nothing when the thread outran
/// `start`, and the thread kept its creator's name.
@Suite struct JournalThreadNameTests {
    @Test func theWritersThreadIsNamedForTheSystem() async throws {
        let folder = try TemporaryFolder()
        let journal = try Journal.open(stateDirectory: folder.path)
        defer { journal.close() }
        // Foundation's getter reads the kernel's name of the calling thread (pthread_getname_np).
        let name = LockedBox("")
        journal.flush { _ in
            let seen = Thread.current.name ?? ""
            name.withLock { $0 = seen }
        }
        try await journal.flushed()
        #expect(name.withLock { $0 } == JournalWriter.threadName)
    }
}

/// Flush callbacks as they arrive, from the journal's thread.
final class LockedList: @unchecked Sendable {
    typealias Call = (round: Int, committed: Int, onWriterThread: Bool, error: JournalError?)
    // Safe to share: `calls` is touched only under `lock`.
    private let lock = NSLock()
    private var calls: [Call] = []

    func append(_ call: Call) { lock.withLock { calls.append(call) } }
    var items: [Call] { lock.withLock { calls } }
}

/// Step ids a test hands to a batch source.
private final class LockedStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []

    func add(_ id: String) { lock.withLock { ids.append(id) } }

    func take() -> [String] {
        lock.withLock {
            defer { ids = [] }
            return ids
        }
    }
}

/// Checks `condition` every 10 ms for up to 5 s; whether it held.
private func poll(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return false
}
