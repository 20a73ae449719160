import Foundation

/// Notices when the command that leads a process group exits, even while a background child it
/// left still holds its output open, and kills the rest of the group then: the step ends with its
/// command.
struct ExitWatch: Sendable {
    let pid: pid_t
    /// The command's pidfd (Linux): readable once the process has exited.
    let descriptor: Int32

    /// Returns when the command has exited (after killing what is left of its group), or when the
    /// task is cancelled.
    func killLeftoversOnExit() async {
        // Polled, backing off to 200 ms: a short command ends before the first look, and a long
        // one costs five looks a second.
        var interval = 5
        while !Task.isCancelled {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 0) != 0 {
                kill(-pid, SIGKILL)
                return
            }
            try? await Task.sleep(for: .milliseconds(interval))
            interval = min(interval * 2, 200)
        }
    }
}
