import FlowTasks

/// The durations the command line prints beside a run's events, written by the engine's one
/// formatter (FlowTasks' `DurationFormat`). Package only, as `JSONText`: an app formats its own,
/// and FlowKit re-exports nothing (the command line cannot see FlowTasks).
package enum DurationText {
    /// A run's or a step's time as `flow runs` shows it: `0.42s`, `12.3s`, `4m 05s`, `2h 03m`.
    package static func runs(seconds: Double) -> String {
        DurationFormat.text(seconds: seconds, .runs)
    }

    /// Time left (an upload's ETA), rounded up to the second: `5s`, `2m05s`, `1h02m`; `?` when
    /// not a finite number.
    package static func remaining(seconds: Double) -> String {
        DurationFormat.text(seconds: seconds, .remaining)
    }
}
