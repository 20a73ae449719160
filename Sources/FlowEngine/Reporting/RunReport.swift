import FlowDSL
import Foundation

/// Everything a run's reports say: the workflow, the outcome, and every step. Built once at the end
/// of a run (or an interrupt) and written as JSON or JUnit; every text is already masked.
package struct RunReport: Sendable, Codable, Equatable {
    /// The workflow's `name`, or its file name.
    package var workflow: String
    /// The workflow file.
    package var file: String
    /// How the run ended.
    package var outcome: RunOutcome
    /// When the run started (ISO 8601).
    package var startedAt: String
    /// The run's duration in seconds.
    package var durationSeconds: Double
    /// Every step, in declaration order.
    package var steps: [StepReport]
    /// Why the run failed before its steps (a service that did not start), when it did.
    package var setupError: String?

    /// Creates a report.
    package init(
        workflow: String, file: String, outcome: RunOutcome, startedAt: String, durationSeconds: Double,
        steps: [StepReport], setupError: String? = nil
    ) {
        self.setupError = setupError
        self.workflow = workflow
        self.file = file
        self.outcome = outcome
        self.startedAt = startedAt
        self.durationSeconds = durationSeconds
        self.steps = steps
    }

    /// How many steps ended in `state`.
    package func count(_ state: StepState) -> Int {
        // Counted without `filter`, which copies every matching step's report.
        steps.reduce(0) { $1.state == state ? $0 + 1 : $0 }
    }
}

/// How a run ended (the report's `outcome` and the summary's first word).
package enum RunOutcome: String, Sendable, Codable, Equatable {
    /// Every top-level step succeeded (or failed under `continue-on-error`, or lost a race).
    case succeeded
    /// A top-level step failed or was cancelled.
    case failed
    /// The run was interrupted.
    case cancelled
}

/// One step in a report.
package struct StepReport: Sendable, Codable, Equatable {
    /// The step's id.
    package var id: String
    /// Its `name`, if it has one.
    package var name: String?
    /// Its kind: `http`, `upload`, `run`, `sleep` or `parallel`.
    package var kind: String
    /// The enclosing group, if any.
    package var group: String?
    /// Where it is declared (`file:line:col`).
    package var location: String
    /// Its final state.
    package var state: StepState
    /// Seconds from the start of the run to the step's start, if it started.
    package var startedAtSeconds: Double?
    /// How long it ran, in seconds, if it started.
    package var durationSeconds: Double?
    /// How many attempts it made (retries included); 0 if it never started.
    package var attempts: Int
    /// For a step with `repeat`: how many times it ran (nil otherwise).
    package var repetitions: Int?
    /// Its outputs by name, as the JSON values they are (strings masked).
    package var outputs: [String: Value]
    /// The winner of an `any` group.
    package var winner: String?
    /// Why it failed or was cancelled.
    package var error: String?
    /// True when it failed under `continue-on-error` (so its failure is not the run's); nil otherwise.
    package var failureIgnored: Bool?
    /// For an `http` step that got a response: the request sent, as `METHOD URL` (masked).
    package var request: String?
    /// For a `for-each` step: each item, as `fetch[3]`.
    package var items: ItemReports?

    /// Creates a step report.
    package init(
        id: String, name: String? = nil, kind: String, group: String? = nil, location: String, state: StepState,
        startedAtSeconds: Double? = nil, durationSeconds: Double? = nil, attempts: Int = 0,
        outputs: [String: Value] = [:], winner: String? = nil, error: String? = nil, request: String? = nil,
        repetitions: Int? = nil, failureIgnored: Bool? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.group = group
        self.location = location
        self.state = state
        self.startedAtSeconds = startedAtSeconds
        self.durationSeconds = durationSeconds
        self.attempts = attempts
        self.repetitions = repetitions
        self.request = request
        self.outputs = outputs
        self.winner = winner
        self.error = error
        self.failureIgnored = failureIgnored
    }
}

/// One item of a `for-each` step in a report.
package struct ItemReport: Sendable, Codable, Equatable {
    /// `step[index]`, as events and the summary name it.
    package var id: String
    /// The item (strings masked).
    package var item: Value
    /// Its final state (`skipped` when it never started).
    package var state: StepState
    /// Its outputs by name, as the JSON values they are (strings masked).
    package var outputs: [String: Value]
    /// Why it failed or was cancelled.
    package var error: String?

    /// Creates an item report.
    package init(id: String, item: Value, state: StepState, outputs: [String: Value] = [:], error: String? = nil) {
        self.id = id
        self.item = item
        self.state = state
        self.outputs = outputs
        self.error = error
    }
}

extension StepReport {
    /// The step and, for a `for-each` step, each item as a step of its own (`fetch[3]`, in the group
    /// of its step), as JUnit lists them.
    var withItems: [StepReport] {
        guard let items else { return [self] }
        return [self]
            + items.map { item in
                StepReport(
                    id: item.id, kind: kind, group: id, location: location, state: item.state,
                    outputs: item.outputs, error: item.error)
            }
    }
}

extension RunReport {
    /// The report as pretty-printed JSON with sorted keys (stable for diffs and tests): the text
    /// `JSONEncoder` wrote for it, written by the project's `JSONWriter`, which is several times
    /// faster on a 100,000-item `for-each` (every key below is written in sorted order).
    package func jsonText() throws -> String {
        String(decoding: jsonBytes(), as: UTF8.self)
    }

    /// The bytes of `jsonText()` (UTF-8), what the report file holds.
    package func jsonBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        writeJSON(bufferSize: 1 << 16) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Hands the bytes of `jsonText()` to `sink` in pieces of about `bufferSize` bytes, in order
    /// (each valid during its call only): the report file is written from one small buffer, with
    /// no 15 MB array made on a 100,000-item `for-each` (its pages cost more to fault in and unmap
    /// than writing them).
    package func writeJSON(bufferSize: Int = 1 << 17, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var writer = JSONWriter(pretty: true, bufferSize: bufferSize, sink: sink)
            writer.beginObject()
            writer.field("durationSeconds")
            writer.number(durationSeconds)
            writer.field("file")
            writer.string(file)
            writer.field("outcome")
            writer.string(outcome.rawValue)
            if let setupError {
                writer.field("setupError")
                writer.string(setupError)
            }
            writer.field("startedAt")
            writer.string(startedAt)
            writer.field("steps")
            writer.beginArray()
            for step in steps { step.write(to: &writer) }
            writer.endArray()
            writer.field("workflow")
            writer.string(workflow)
            writer.endObject()
            writer.endLine()
            writer.flush()
        }
    }
}

extension StepReport {
    fileprivate func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("attempts")
        writer.integer(attempts)
        writer.optional("durationSeconds", durationSeconds) { $0.number($1) }
        writer.optional("error", error) { $0.string($1) }
        writer.optional("failureIgnored", failureIgnored) { $0.bool($1) }
        writer.optional("group", group) { $0.string($1) }
        writer.field("id")
        writer.string(id)
        writer.optional("items", items) { writer, items in items.write(to: &writer) }
        writer.field("kind")
        writer.string(kind)
        writer.field("location")
        writer.string(location)
        writer.optional("name", name) { $0.string($1) }
        writer.field("outputs")
        writer.object(outputs) { $0.value($1) }
        writer.optional("repetitions", repetitions) { $0.integer($1) }
        writer.optional("request", request) { $0.string($1) }
        writer.optional("startedAtSeconds", startedAtSeconds) { $0.number($1) }
        writer.field("state")
        writer.string(state.rawValue)
        writer.optional("winner", winner) { $0.string($1) }
        writer.endObject()
    }
}

extension JSONWriter {
    /// A member for an optional field, left out when it is nil (as `Codable` leaves it out).
    fileprivate mutating func optional<Field>(
        _ name: StaticString, _ value: Field?, _ write: (inout JSONWriter, Field) -> Void
    ) {
        guard let value else { return }
        field(name)
        write(&self, value)
    }
}
