import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// What a `repeat` leaves once its condition said stop: the last attempt's `result` and scope, the
/// attempts made (retries included), the repetitions, and the `collect` lists.
struct RepetitionOutcome: Sendable {
    let result: Value
    /// `start.locals` with the last attempt's `previous` and `attempt`, for the outputs.
    let locals: [String: Value]
    let attempts: Int
    let repetitions: Int
    let collected: [String: Value]
    /// The request the last attempt of an `http` step sent.
    let request: HTTPRequestLine?
}

/// One run of a step with `repeat:`: calls the step's runner once per attempt, with `previous` and
/// `attempt` added to its scope, decides the condition after each, gathers `collect`, and pauses
/// `every` before the next. Errors inside an attempt are the runner's (it applies `retry`); the
/// step's `timeout` cancels the returned future, which cancels the attempt or the pause in flight.
final class Repetition: Sendable {
    private let rule: Repeat
    private let condition: CompiledCondition
    private let values: RunValues
    private let masker: SecretMasker
    private let start: StepStart<StepResult>
    private let queue: DispatchQueue
    private let runner: @Sendable (StepStart<StepResult>) -> Future<RunnerOutput>
    private let promise: Promise<RepetitionOutcome>
    /// How to cancel what is in flight: the attempt or the pause.
    private let current = LockedBox<(@Sendable () -> Void)?>(nil)

    /// The state carried from one attempt to the next.
    private struct Progress: Sendable {
        var attempt = 1
        var previous = Value.null
        var attempts = 0
        var collected: [String: [Value]] = [:]
    }

    private init(
        rule: Repeat, condition: CompiledCondition, values: RunValues, masker: SecretMasker,
        start: StepStart<StepResult>, queue: DispatchQueue,
        runner: @escaping @Sendable (StepStart<StepResult>) -> Future<RunnerOutput>
    ) {
        self.rule = rule
        self.condition = condition
        self.values = values
        self.masker = masker
        self.start = start
        self.queue = queue
        self.runner = runner
        promise = Promise(on: queue)
    }

    /// Starts the repetition of one run of a step; cancelling the future stops it at once.
    static func run(
        _ rule: Repeat, values: RunValues, masker: SecretMasker, start: StepStart<StepResult>,
        queue: DispatchQueue, runner: @escaping @Sendable (StepStart<StepResult>) -> Future<RunnerOutput>
    ) -> Future<RepetitionOutcome> {
        let condition: CompiledCondition
        do {
            condition = try CompiledCondition(rule.condition)
        } catch {
            return Future.failed(error, on: queue)
        }
        let repetition = Repetition(
            rule: rule, condition: condition, values: values, masker: masker, start: start, queue: queue,
            runner: runner)
        repetition.promise.onCancel { repetition.cancelCurrent() }
        queue.async { repetition.next(Progress()) }
        return repetition.promise.future
    }

    private func cancelCurrent() {
        current.withLock { $0 }?()
    }

    /// Remembers how to cancel `future`, then cancels it at once if the repetition already ended.
    private func track<T: Sendable>(_ future: Future<T>) {
        current.withLock { $0 = { future.cancel() } }
        if promise.isCompleted { future.cancel() }
    }

    /// The scope names of attempt `progress.attempt`: the step's own (a `for-each` item) kept.
    private func locals(_ progress: Progress) -> [String: Value] {
        var locals = start.locals
        locals["previous"] = progress.previous
        locals["attempt"] = .number(Double(progress.attempt))
        return locals
    }

    private func next(_ progress: Progress) {
        guard !promise.isCompleted else { return }
        var attemptStart = start
        attemptStart.locals = locals(progress)
        start.report(
            .repetition(progress.attempt, of: rule.maxAttempts, previous: Self.summary(of: progress.previous)))
        let future = runner(attemptStart)
        track(future)
        future.whenComplete(on: queue) { outcome in
            switch outcome {
            case .success(let output):
                do {
                    try self.finished(progress, output)
                } catch {
                    self.promise.fail(self.describe(error, attempt: progress.attempt))
                }
            case .failure(let error):
                self.promise.fail(self.describe(error, attempt: progress.attempt))
            }
        }
    }

    /// What an attempt's `result` says in a word, as the log shows it: an `http` or `upload` step's
    /// status, a `run` step's exit code; nil for other results.
    static func summary(of result: Value) -> String? {
        guard case .object(let fields) = result else { return nil }
        if case .number(let status, _)? = fields["status"] { return "status \(Value.number(status).interpolated)" }
        if case .number(let code, _)? = fields["exit_code"] { return "exit code \(Value.number(code).interpolated)" }
        return nil
    }

    /// Decides what follows attempt `progress.attempt`, which gave `output`.
    private func finished(_ progress: Progress, _ output: RunnerOutput) throws(StepError) {
        let result = output.result
        let locals = locals(progress)
        var progress = progress
        progress.attempts += output.attempts
        try collect(result, locals: locals, into: &progress.collected)
        let scope = values.scope(
            for: [], expressions: [condition.expression], records: start.records, result: result, locals: locals)
        let held = try condition.holds(in: scope)
        guard rule.continues(afterConditionHeld: held) else {
            promise.succeed(
                RepetitionOutcome(
                    result: result, locals: locals, attempts: progress.attempts, repetitions: progress.attempt,
                    collected: progress.collected.mapValues { .array($0) }, request: output.request))
            return
        }
        guard progress.attempt < rule.maxAttempts else {
            promise.fail(
                RepetitionFailure(
                    message: exhaustedMessage(held: held, scope: scope), location: rule.condition.location,
                    hint: "raise 'max-attempts' or 'every' if the server needs longer, or check the condition",
                    repetitions: progress.attempt))
            return
        }
        progress.previous = result
        progress.attempt += 1
        let pause = Future<Void>.delay(rule.every, on: queue)
        track(pause)
        // Always a hop through the queue, so that thousands of quick attempts (`every: 0s`) do not
        // nest their callbacks on one stack.
        pause.whenSuccess(on: queue) { [progress] in
            self.queue.async { self.next(progress) }
        }
    }

    /// Adds each `collect` value of one attempt: a list's items, or the value itself.
    private func collect(_ result: Value, locals: [String: Value], into collected: inout [String: [Value]])
        throws(StepError)
    {
        guard !rule.collect.isEmpty else { return }
        let scope = values.scope(
            for: rule.collect.map(\.value), records: start.records, result: result, locals: locals)
        for entry in rule.collect {
            let value: Value
            do {
                value = try entry.value.evaluate(in: scope)
            } catch {
                throw StepError("collect '\(entry.name)': \(error.message)", at: error.location)
            }
            if case .array(let items) = value {
                collected[entry.name, default: []] += items
            } else {
                collected[entry.name, default: []].append(value)
            }
        }
    }

    /// "repeat until 'result.json.state == 'done'' still false after 60 attempts; result.json.state
    /// was 'pending'": the rule, and the last value of each path the condition read, masked.
    private func exhaustedMessage(held: Bool, scope: ExpressionScope) -> String {
        let count = "\(rule.maxAttempts) attempt\(rule.maxAttempts == 1 ? "" : "s")"
        let source = condition.expression.source.trimmingCharacters(in: .whitespaces)
        var message = "repeat \(rule.mode.rawValue) '\(source)' still \(held) after \(count)"
        var seen = Set<String>()
        var readings: [String] = []
        for reference in condition.expression.references where seen.insert(reference.description).inserted {
            guard readings.count < 3, let value = Self.value(of: reference, in: scope) else { continue }
            readings.append("\(reference) was \(Self.shown(value))")
        }
        if !readings.isEmpty { message += "; " + readings.joined(separator: ", ") }
        return masker(message)
    }

    /// The value at a reference's static path, or nil when the root is not in scope.
    private static func value(of reference: Reference, in scope: ExpressionScope) -> Value? {
        guard var value = scope.value(ofRoot: reference.root) else { return nil }
        for component in reference.path {
            switch (component, value) {
            case (.key(let key), .object(let members)): value = members[key] ?? .null
            case (.index(let index), .array(let items)): value = items.indices.contains(index) ? items[index] : .null
            case (.dynamic, _): return value
            default: value = .null
            }
        }
        return value
    }

    /// A value as the failure shows it: text quoted, anything long cut short.
    private static func shown(_ value: Value) -> String {
        let text: String
        if case .string(let string) = value { text = "'" + string + "'" } else { text = value.jsonText }
        return text.count > 120 ? String(text.prefix(117)) + "..." : text
    }

    /// A failure inside an attempt, counted for reports; after the first it says which attempt it
    /// was. Cancellations and time-outs pass unchanged.
    private func describe(_ error: any Error, attempt: Int) -> any Error {
        guard let stepError = error as? StepError else { return error }
        return RepetitionFailure(
            message: attempt > 1 ? "repeat attempt \(attempt): \(stepError.message)" : stepError.message,
            location: stepError.location, hint: nil, repetitions: attempt)
    }
}
