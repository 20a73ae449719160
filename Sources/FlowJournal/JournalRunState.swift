/// A run's state in the journal: how it ended, as the one who ran it tells the journal
/// (`JournalChange.runFinished`), or `running` while it runs. A value, not a word both sides spell.
package enum JournalRunState: String, Sendable, Codable, CaseIterable {
    /// The run is under way: what `beginRun` and `reopenRun` store. A run recorded as running whose
    /// process is gone reads as `interrupted`. Never a finish.
    case running
    /// Every step that had to succeed did.
    case succeeded
    /// A step failed, or the run could not start.
    case failed
    /// The run was cancelled (Ctrl-C, a signal, the host's `cancel()`): `--resume` continues it.
    case interrupted

    /// Whether `--resume` continues a run in this state.
    package var isUnfinished: Bool { self == .failed || self == .interrupted }
}
