/// A step's `repeat:` rule: run the step again and again (polling, pagination) until a condition
/// says stop, pausing `every` between attempts, at most `maxAttempts` times.
package struct Repeat: Sendable, Hashable {
    /// Whether the condition says when to stop or when to go on.
    package enum Mode: String, Sendable, Hashable {
        /// Stop once the condition holds (`until:`).
        case until
        /// Go on while the condition holds (`while:`).
        case `while`
    }

    /// The attempts a `repeat` makes when it sets no `max-attempts`: enough for a minute of
    /// polling at the default `every`, and never a loop without end.
    package static let defaultMaxAttempts = 60
    /// The pause between attempts when `every` is not given.
    package static let defaultEvery = Duration.seconds(1)
    /// The names a repeated step's expressions may read besides the run's roots.
    package static let localNames = ["previous", "attempt"]

    /// `until` or `while`.
    package let mode: Mode
    /// The condition, evaluated after each attempt with that attempt's `result` in scope.
    package let condition: ScalarText
    /// The pause between attempts.
    package let every: Duration
    /// The most attempts, the first included; the step fails when they are used up.
    package let maxAttempts: Int
    /// `collect:` entries: each value is gathered from every attempt into one list output.
    package let collect: [NamedValue]
    /// Where `repeat:` is written.
    package let location: SourceLocation

    /// Creates a repeat rule.
    package init(
        mode: Mode, condition: ScalarText, every: Duration = Repeat.defaultEvery,
        maxAttempts: Int = Repeat.defaultMaxAttempts, collect: [NamedValue] = [], location: SourceLocation
    ) {
        self.mode = mode
        self.condition = condition
        self.every = every
        self.maxAttempts = maxAttempts
        self.collect = collect
        self.location = location
    }

    /// The condition as one expression, bare or in `${{ }}`; nil when it does not compile.
    package var conditionExpression: Expression? { condition.conditionExpression }

    /// Whether another attempt is due, given the condition's value after an attempt.
    package func continues(afterConditionHeld held: Bool) -> Bool {
        mode == .until ? !held : held
    }
}

extension Step {
    /// Every output name a step declares: its `outputs`, then its `repeat.collect` entries.
    package var outputNames: [String] {
        outputs.map(\.name) + (self.repeat?.collect.map(\.name) ?? [])
    }
}
