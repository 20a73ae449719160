/// How a run ended, as the one who ran it tells the journal (`JournalChange.runFinished`): a value,
/// not a word both sides spell.
package enum JournalRunState: String, Sendable, CaseIterable {
    /// Every step that had to succeed did.
    case succeeded
    /// A step failed, or the run could not start.
    case failed
    /// The run was cancelled (Ctrl-C, a signal, the host's `cancel()`): `--resume` continues it.
    case interrupted
}
