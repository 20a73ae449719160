import Dispatch
import FlowTasks
import Foundation

/// The process groups of the commands flow started and has not yet seen gone, so that cancelling
/// can signal a whole group and flow can make sure none outlives it.
///
/// Each command runs in its own process group (its id is the command's pid). A group stays listed
/// until no process of it is left, not merely until the command itself exited: a process that
/// ignores SIGTERM, or a background child, keeps it listed, so `terminateAll` still finds it.
public enum ProcessGroups {
    private static let live = LockedBox<Set<pid_t>>([])
    private static let timers = DispatchQueue(label: "flow.process-groups")
    /// How long flow waits for killed processes to disappear before it stops waiting (a process
    /// in uninterruptible sleep, on a hung network file system, cannot be waited for forever).
    static let killWait = Duration.seconds(5)

    static func add(_ group: pid_t) {
        live.withLock { _ = $0.insert(group) }
        ProcessReaper.watch(group)
    }

    /// The command that leads `group` has exited: whatever it left running in its group (background
    /// children) is killed, as CI runners do when a step ends, and the group is forgotten once
    /// nothing of it is left.
    static func commandExited(_ group: pid_t) async {
        kill(-group, SIGKILL)
        await waitUntilGone([group], for: killWait)
        live.withLock { _ = $0.remove(group) }
        ProcessReaper.forget(group)
    }

    /// SIGTERM to the group now, SIGKILL after `grace` if anything in it is still running.
    static func terminate(_ group: pid_t, grace: Duration) {
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        timers.asyncAfter(deadline: .now() + grace.dispatchInterval) {
            if isListed(group), isAlive(group) { kill(-group, SIGKILL) }
        }
    }

    /// Whether any process of the group still runs; a zombie (dead, waiting for its parent to
    /// collect it, which a container's init may never do) does not count.
    static func isAlive(_ group: pid_t) -> Bool {
        guard kill(-group, 0) == 0 else { return false }
        return hasRunningMember(group)
    }

    private static func isListed(_ group: pid_t) -> Bool {
        live.withLock { $0.contains(group) }
    }

    /// SIGKILL to every group flow started that is still running, then a short wait for them to go:
    /// for quitting without the grace period (a second interrupt). Blocks the calling thread, which
    /// is about to exit the process.
    public static func killAll() {
        let groups = live.withLock { $0 }
        for group in groups { kill(-group, SIGKILL) }
        let deadline = ContinuousClock.now + killWait
        while ContinuousClock.now < deadline, groups.contains(where: isAlive) {
            usleep(10_000)
        }
    }

    /// Ends every group flow started that is still running: SIGTERM, up to `grace` to exit, then
    /// SIGKILL, and returns once they are gone. Called before flow exits, so no command outlives it.
    public static func terminateAll(grace: Duration) async {
        let groups = live.withLock { $0 }.filter(isAlive)
        guard !groups.isEmpty else { return }
        for group in groups { kill(-group, SIGTERM) }
        await waitUntilGone(groups, for: grace)
        let stubborn = groups.filter(isAlive)
        for group in stubborn { kill(-group, SIGKILL) }
        await waitUntilGone(stubborn, for: killWait)
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
