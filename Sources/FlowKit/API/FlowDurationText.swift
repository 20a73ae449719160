import FlowTasks

/// Durations as flow prints them beside a run's events, written by the engine's one formatter:
/// for a program that shows them next to flow's own (`flow runs`, an upload's time left).
///
/// ```swift
/// print("\(record.id)  \(FlowDurationText.runs(seconds: 245))")      // "4m 05s"
/// ```
public enum FlowDurationText {
    /// A run's or a step's time as `flow runs` shows it: `0.42s`, `12.3s`, `4m 05s`, `2h 03m`.
    public static func runs(seconds: Double) -> String {
        DurationFormat.text(seconds: seconds, .runs)
    }

    /// Time left (an upload's ETA), rounded up to the second: `5s`, `2m05s`, `1h02m`; `?` when
    /// not a finite number.
    public static func remaining(seconds: Double) -> String {
        DurationFormat.text(seconds: seconds, .remaining)
    }
}
