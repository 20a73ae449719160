/// Why the journal cannot be opened, written or read; `description` is the message a user sees.
package enum JournalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state directory (first value) cannot be written; the second value is the system's reason.
    case readOnly(String, reason: String)
    /// The file system holding the state directory is full.
    case full(String)
    /// The journal file (first value) is not a database or is damaged; the second value says how.
    case corrupt(String, reason: String)
    /// Any other failure, already worded for a user.
    case io(String)

    /// One line naming the file or folder and what to do about it.
    package var description: String {
        switch self {
        case .readOnly(let directory, let reason):
            return "state directory \(directory) is not writable: \(reason); use --state-dir or FLOW_STATE_DIR"
        case .full(let directory):
            return "state directory \(directory) has no space left (the disk is full); "
                + "free some space, or use --state-dir or FLOW_STATE_DIR"
        case .corrupt(let file, let reason):
            return "journal \(file) is damaged (\(reason)); move it away (for example to \(file).broken) "
                + "and run again: a new journal is created, earlier runs are no longer listed"
        case .io(let message):
            return message
        }
    }
}
