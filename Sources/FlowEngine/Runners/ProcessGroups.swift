import Dispatch
import FlowTasks
import Foundation

/// The process groups of the commands one run started and has not yet seen gone, so that
/// cancelling can signal a whole group and the run can make sure none outlives it.
///
/// Each run owns one (`RunOptions.processGroups`, shared with the runs of its called files and its
/// services): a program that runs several workflows at once ends one run's commands without
/// touching another's. Each command runs in its own process group (its id is the command's pid).
/// A group stays listed until no process of it is left, not merely until the command itself
/// exited: a process that ignores SIGTERM, or a background child, keeps it listed, so
/// `terminateAll` still finds it. The reaper (`ProcessReaper`) is one per process, for all runs.
package final class ProcessGroups: Sendable {
    private let live = LockedBox<Set<pid_t>>([])
    private static let timers = DispatchQueue(label: "flow.process-groups")
    /// How long flow waits for killed processes to disappear before it stops waiting (a process
    /// in uninterruptible sleep, on a hung network file system, cannot be waited for forever).
    static let killWait = Duration.seconds(5)

    /// An empty set, for one run.
    package init() {}

    func add(_ group: pid_t) {
        live.withLock { _ = $0.insert(group) }
        ProcessReaper.watch(group)
    }

    /// The command that leads `group` has exited: whatever it left running in its group (background
    /// children) is killed, as CI runners do when a step ends, and the group is forgotten once
    /// nothing of it is left.
    func commandExited(_ group: pid_t) async {
        kill(-group, SIGKILL)
        await Self.waitUntilGone([group], for: Self.killWait)
        live.withLock { _ = $0.remove(group) }
        ProcessReaper.forget(group)
    }

    /// SIGTERM to the group now, SIGKILL after `grace` if anything in it is still running.
    func terminate(_ group: pid_t, grace: Duration) {
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        Self.timers.asyncAfter(deadline: .now() + grace.dispatchInterval) { [self] in
            if isListed(group), Self.isAlive(group) { kill(-group, SIGKILL) }
        }
    }

    /// Whether any process of the group still runs; a zombie (dead, waiting for its parent to
    /// collect it, which a container's init may never do) does not count.
    static func isAlive(_ group: pid_t) -> Bool {
        guard kill(-group, 0) == 0 else { return false }
        return hasRunningMember(group)
    }

    private func isListed(_ group: pid_t) -> Bool {
        live.withLock { $0.contains(group) }
    }

    /// SIGKILL to every group flow started that is still running, then a short wait for them to go:
    /// for quitting without the grace period (a second interrupt). Blocks the calling thread, which
    /// is about to exit the process.
    package func killAll() {
        let groups = live.withLock { $0 }
        for group in groups { kill(-group, SIGKILL) }
        let deadline = ContinuousClock.now + Self.killWait
        while ContinuousClock.now < deadline, groups.contains(where: Self.isAlive) {
            usleep(10_000)
        }
    }

    /// Ends every group flow started that is still running: SIGTERM, up to `grace` to exit, then
    /// SIGKILL, and returns once they are gone. Called before flow exits, so no command outlives it.
    package func terminateAll(grace: Duration) async {
        let groups = live.withLock { $0 }.filter(Self.isAlive)
        guard !groups.isEmpty else { return }
        for group in groups { kill(-group, SIGTERM) }
        await Self.waitUntilGone(groups, for: grace)
        let stubborn = groups.filter(Self.isAlive)
        for group in stubborn { kill(-group, SIGKILL) }
        await Self.waitUntilGone(stubborn, for: Self.killWait)
    }

    private static func waitUntilGone(_ groups: some Collection<pid_t>, for limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline, groups.contains(where: isAlive) {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Whether a process that is not a zombie has `group` as its process group, from /proc.
    private static func hasRunningMember(_ group: pid_t) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return true }
        for entry in entries where entry.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "pid (name) ": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[2] == "\(group)" else { continue }
            if fields[0] != "Z" && fields[0] != "X" { return true }
        }
        return false
    }
}
