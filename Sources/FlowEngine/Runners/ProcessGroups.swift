import Dispatch
import FlowTasks
import Foundation

/// The process groups of the commands flow started and has not seen exit, so that cancelling can
/// signal a whole group and flow can make sure none outlives it.
///
/// Each command runs in its own process group (its id is the command's pid). Cancelling sends
/// SIGTERM to the group at once and SIGKILL after the grace period; `terminateAll` is the last
/// word before flow exits.
public enum ProcessGroups {
    private static let live = LockedBox<Set<pid_t>>([])
    private static let timers = DispatchQueue(label: "flow.process-groups")

    static func add(_ group: pid_t) {
        live.withLock { _ = $0.insert(group) }
    }

    static func remove(_ group: pid_t) {
        live.withLock { _ = $0.remove(group) }
    }

    /// SIGTERM to the group now, SIGKILL after `grace` if anything in it is still running.
    static func terminate(_ group: pid_t, grace: Duration) {
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        timers.asyncAfter(deadline: .now() + grace.dispatchInterval) {
            if kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
    }

    /// Whether any process of the group still exists.
    static func isAlive(_ group: pid_t) -> Bool {
        kill(-group, 0) == 0
    }

    /// SIGKILL to every group flow started that is still running, at once: for quitting without
    /// waiting (a second interrupt).
    public static func killAll() {
        for group in live.withLock({ $0 }) { kill(-group, SIGKILL) }
    }

    /// Ends every group flow started that is still running: SIGTERM, up to `grace` to exit, then
    /// SIGKILL. Called before flow exits, so no command outlives it.
    public static func terminateAll(grace: Duration) async {
        let groups = live.withLock { $0 }.filter(isAlive)
        guard !groups.isEmpty else { return }
        for group in groups { kill(-group, SIGTERM) }
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline, groups.contains(where: isAlive) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for group in groups where isAlive(group) { kill(-group, SIGKILL) }
    }
}
