import FlowSandbox
import Foundation
import GRDB
import Testing

@testable import FlowJournal

/// A `for-each` step's journal (format 5): its items' starts held back as steps' are, and a step
/// whose items all succeeded recorded without repeating them — a resume rebuilds them from the
/// items' own ends. Against the real sandbox, a real `kill -9`, and a journal in an earlier format.
@Suite(.serialized) struct ForEachJournalTests {
    /// The step's own record in the journal of the folder's latest run, and the journal's format.
    static func stepRecord(_ step: String, stateDirectory: String) throws -> (text: String?, format: Int) {
        let record = try JournalRunSetup.reading(stateDirectory) { journal in
            let run = try #require(try journal.runs(file: nil).first)
            let detail = try #require(try journal.run(id: run.id))
            let format = try DatabaseQueue(path: journal.file).read { db in
                try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            }
            return (text: detail.steps.first { $0.step == step && $0.item == nil }?.outputs.json, format: format)
        }
        return try #require(record, "no journal in \(stateDirectory)")
    }

    static func workflow(_ baseURL: String) -> String {
        """
        version: 1
        defaults:
          http: { base-url: "\(baseURL)" }
        steps:
          fetch:
            for-each: ${{ range(0, 30) }}
            concurrency: 3
            http: { url: "/delay/100?i=${{ index }}" }
            outputs: { got: "${{ index }}" }
          after:
            needs: fetch
            http: { url: "/status/${{ env.AFTER }}?n=${{ length(steps.fetch.items) }}&third=${{ steps.fetch.items[3].outputs.got }}&all=${{ join(steps.fetch.outputs.got, '_') }}" }
        """
    }

    /// Killed mid-way: the resume runs the unfinished items only. Once the step succeeded, a later
    /// resume keeps it whole — its items and their outputs read back from each item's own end,
    /// as its record names their count instead of repeating them.
    @Test func aKilledForEachResumesItsUnfinishedItemsAndIsLaterKeptWithItsItems() async throws {
        let setup = try await JournalRunSetup.start("each.yaml", Self.workflow)
        defer { setup.stop() }
        let (sandbox, file, state) = (setup.sandbox, setup.file, setup.state)
        let child = try FlowChild(["run", file], environment: ["AFTER": "200"])
        // Kill it once at least 6 items' ends are in the journal (and before all 30 are).
        var succeededBefore: Set<Int> = []
        let some = await FlowChild.wait(for: .seconds(30)) {
            let read = try? JournalRunSetup.reading(state) { journal in
                try journal.runs(file: nil).first.map { try journal.run(id: $0.id) } ?? nil
            }
            guard let detail = read ?? nil else { return false }
            succeededBefore = Set(
                detail.steps.filter { $0.step == "fetch" && $0.state == .succeeded }.compactMap(\.item))
            return succeededBefore.count >= 6
        }
        #expect(some, "\(child.errors)")
        kill(child.process.processIdentifier, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        #expect(succeededBefore.count < 30, "the run ended before the kill")

        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["AFTER": "500"])
        #expect(resumed.exitCode == 1, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stderr.contains("running 'fetch' again with"), "\(resumed.stderr)")
        for index in 0..<30 {
            let sent = ResumeRunTests.count("GET /delay/100?i=\(index)", in: sandbox)
            // An item that had succeeded is not sent again; one in flight at the kill is.
            if succeededBefore.contains(index) {
                #expect(sent == 1, "item \(index): \(sent) requests")
            } else {
                #expect(sent >= 1 && sent <= 2, "item \(index): \(sent) requests")
            }
        }
        // The step's record does not repeat its 30 items: it names their count.
        let record = try Self.stepRecord("fetch", stateDirectory: state)
        #expect(record.format == 6)
        let text = try #require(record.text)
        #expect(text.contains(#""items-in-log":30"#) && !text.contains(#""items":["#), "\(text)")

        let before = ResumeRunTests.requests(sandbox).filter { $0.hasPrefix("GET /delay/") }.count
        let kept = try await FlowProcess.run(["run", file, "--resume"], environment: ["AFTER": "200"])
        #expect(kept.exitCode == 0, "\(kept.stdout)\n\(kept.stderr)")
        #expect(kept.stderr.contains("1 step kept (fetch)"), "\(kept.stderr)")
        #expect(ResumeRunTests.requests(sandbox).filter { $0.hasPrefix("GET /delay/") }.count == before)
        let all = (0..<30).map(String.init).joined(separator: "_")
        #expect(
            ResumeRunTests.count("GET /status/200?n=30&third=3&all=\(all)", in: sandbox) == 1,
            "\(ResumeRunTests.requests(sandbox).suffix(3))")
    }

    /// A journal an earlier flow wrote (format 4: a `for-each` step's record with every item,
    /// items' ends with their state's name and their text with its empty outputs) is upgraded in
    /// place and read: its succeeded `for-each` step is kept with its items.
    @Test func aFormatFourJournalIsStillReadAndItsForEachKeptWithItsItems() async throws {
        let setup = try await JournalRunSetup.start("old.yaml") { baseURL in
            """
            version: 1
            defaults:
              http: { base-url: "\(baseURL)" }
            steps:
              fetch:
                for-each: [a, b, c]
                http: { url: "/echo?item=${{ item }}" }
              after:
                needs: fetch
                http: { url: "/status/${{ env.AFTER }}?second=${{ steps.fetch.items[1].item }}&n=${{ length(steps.fetch.items) }}" }
            """
        }
        defer { setup.stop() }
        let (sandbox, file) = (setup.sandbox, setup.file)
        let failed = try await FlowProcess.run(["run", file], environment: ["AFTER": "500"])
        #expect(failed.exitCode == 1, "\(failed.stdout)\n\(failed.stderr)")
        try Self.rewriteAsFormatFour(setup.state + "/journal.sqlite")

        let resumed = try await FlowProcess.run(["run", file, "--resume"], environment: ["AFTER": "200"])
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stderr.contains("1 step kept (fetch)"), "\(resumed.stderr)")
        for item in ["a", "b", "c"] {
            #expect(ResumeRunTests.count("GET /echo?item=\(item)", in: sandbox) == 1)
        }
        #expect(ResumeRunTests.count("GET /status/200?second=b&n=3", in: sandbox) == 1)
        #expect(try Self.stepRecord("fetch", stateDirectory: setup.state).format == 6)
    }

    /// Rewrites the journal as a flow of format 4 wrote it: every finish with its state's name
    /// (tag 2), items' texts with `outputs`, the `for-each` step's record with its items.
    static func rewriteAsFormatFour(_ path: String) throws {
        let database = try DatabaseQueue(path: path)
        defer { try? database.close() }
        try database.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT seq, changes FROM step_log") {
                let seq: Int = row["seq"]
                let data: Data = row["changes"]
                var decoder = StepLogDecoder([UInt8](data))
                var old: [UInt8] = []
                while let change = try decoder.next() {
                    switch change {
                    case .finished(
                        let key, let state, let attempts, let startedAt, let finishedAt, var outputs, let error)
                    where outputs != .stateOnly || error != nil:
                        if case .json(let text) = outputs, key.item != nil, !text.contains(#""outputs":"#) {
                            outputs = .json(String(text.dropLast()) + #","outputs":{}}"#)
                        } else if case .json(let text) = outputs, text.contains("items-in-log") {
                            let items = ["a", "b", "c"].map {
                                #"{"attempts":1,"item":"\#($0)","outputs":{},"status":"succeeded"}"#
                            }
                            outputs = .json(
                                #"{"items":["# + items.joined(separator: ",") + #"],"outputs":{},"status":"succeeded"}"#
                            )
                        }
                        old += formatFourFinish(key, state, attempts, startedAt, finishedAt, outputs, error)
                    default:
                        // Written as format 4 wrote them (a finish of its state alone: format 3's tag).
                        var encoder = StepLogEncoder()
                        switch change {
                        case .started(let key, let attempt, let at):
                            encoder.add(.stepStarted(run: "", step: key.step, item: key.item, attempt: attempt, at: at))
                        case .finished(
                            let key, let state, let attempts, let startedAt, let finishedAt, let outputs, let error):
                            encoder.addFinished(
                                step: key.step, item: key.item, state: state, attempts: attempts, startedAt: startedAt,
                                finishedAt: finishedAt, outputs: outputs, error: error)
                        case .unsafeSend(let key, let at):
                            encoder.add(.unsafeSend(run: "", step: key.step, item: key.item, at: at))
                        case .transfer(let key, let kind, let target, let bytesConfirmed, let fileIdentity):
                            encoder.add(
                                .transfer(
                                    run: "", step: key.step, item: key.item, kind: kind, target: target,
                                    bytesConfirmed: bytesConfirmed, fileIdentity: fileIdentity))
                        }
                        old += encoder.bytes
                    }
                }
                try db.execute(sql: "UPDATE step_log SET changes = ? WHERE seq = ?", arguments: [Data(old), seq])
            }
            try db.execute(sql: "PRAGMA user_version = 4")
        }
    }

    /// A `finished` change as format 4 wrote it: tag 2, the state by its name.
    static func formatFourFinish(
        _ key: StepLogKey, _ state: JournalStepState, _ attempts: Int, _ startedAt: Date?, _ finishedAt: Date,
        _ outputs: JournalOutputs, _ error: String?
    ) -> [UInt8] {
        var bytes: [UInt8] = [StepLogTag.finished.rawValue]
        func count(_ value: Int) { StepLogEncoder.varint(value) { bytes.append($0) } }
        func text(_ value: String) {
            count(value.utf8.count)
            bytes += value.utf8
        }
        func date(_ value: Date) {
            withUnsafeBytes(of: value.timeIntervalSince1970.bitPattern.littleEndian) { bytes += $0 }
        }
        text(key.step)
        count(key.item.map { $0 + 1 } ?? 0)
        text(state.rawValue)
        count(attempts)
        if let startedAt {
            bytes.append(1)
            date(startedAt)
        } else {
            bytes.append(0)
        }
        date(finishedAt)
        switch outputs {
        case .none, .secret: bytes.append(0)
        case .stateOnly: bytes.append(2)
        case .json(let json):
            bytes.append(1)
            text(json)
        }
        bytes.append(outputs.containsSecret ? 1 : 0)
        if let error {
            bytes.append(1)
            text(error)
        } else {
            bytes.append(0)
        }
        return bytes
    }
}
