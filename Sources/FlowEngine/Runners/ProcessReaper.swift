import FlowTasks
import Foundation

/// Makes sure no command or service outlives flow however flow ends, `kill -9` included.
///
/// Each command runs in a process group of its own, so killing flow does not reach it. The reaper
/// is a second flow process (`flow reap-process-groups`, hidden), started at the first command
/// flow runs, in a session of its own (a signal to flow's process group does not reach it). flow
/// tells it, over a socket on its stdin, each group it starts and each group that is gone. When
/// that socket reads end-of-file — flow exited, or was killed — the reaper sends SIGTERM to every
/// group still listed, SIGKILL two seconds later, and exits. `PR_SET_PDEATHSIG` would not do: it
/// fires when the spawning *thread* exits, reaches only the direct child (not what a script started
/// in its group), and swift-subprocess's `posix_spawn` offers no hook to set it in the child.
package enum ProcessReaper {
    /// The hidden subcommand that makes `flow` the reaper.
    package static let command = "reap-process-groups"

    private struct State {
        /// The flow binary to start as the reaper; nil until `enable`, so that processes started
        /// by tests in-process (where the executable is the test runner) have none.
        var executable: String?
        /// flow's end of the socket; -1 before the reaper is started, or when it could not be.
        var socket: Int32 = -1
        var started = false
    }

    private static let state = LockedBox(State())

    /// Lets the reaper start with the first command. `executable` is flow's own binary.
    package static func enable(executable: String) {
        state.withLock { $0.executable = executable }
    }

    /// A new group to end if flow dies.
    static func watch(_ group: pid_t) {
        send("+\(group)\n", start: true)
    }

    /// A group that is gone: not to be signalled again (its id may be reused).
    static func forget(_ group: pid_t) {
        send("-\(group)\n", start: false)
    }

    private static func send(_ line: String, start: Bool) {
        state.withLock { state in
            if start, !state.started, let executable = state.executable {
                state.started = true
                state.socket = spawn(executable)
            }
            guard state.socket >= 0 else { return }
            var bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                // A few bytes to a reader that reads all the time: this does not wait in practice.
                // Without SIGPIPE: a reaper that is gone must not kill flow.
                let sent = bytes.withUnsafeMutableBytes {
                    SystemCall.sendWithoutSignal(state.socket, $0.baseAddress! + offset, $0.count - offset)
                }
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }

    /// Starts `executable reap-process-groups` with one end of a socket pair as its stdin; flow's
    /// end, or -1 when it could not start (flow then runs as before, without the guarantee).
    private static func spawn(_ executable: String) -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, SystemCall.streamSocket, 0, &ends) == 0 else { return -1 }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let spawned = SystemCall.spawn([executable, command], input: ends[1]).result
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            return -1
        }
        return ends[0]
    }

    /// The reaper's side: reads group ids until its input ends (flow is gone), then ends every
    /// group still listed — SIGTERM, then SIGKILL after `grace` — and exits.
    package static func serve(grace: Duration = .seconds(2)) -> Never {
        // Its own session: neither a terminal's interrupt nor a signal to flow's group reaches it.
        _ = setsid()
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT] { signal(signalNumber, SIG_IGN) }
        var groups = Set<pid_t>()
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                guard let sign = line.first, let group = pid_t(line.dropFirst()), group > 1 else { continue }
                if sign == "+" { groups.insert(group) } else { groups.remove(group) }
            }
        }
        let alive = { groups.filter { kill(-$0, 0) == 0 } }
        for group in groups { kill(-group, SIGTERM) }
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline, !alive().isEmpty { usleep(20_000) }
        for group in alive() { kill(-group, SIGKILL) }
        exit(0)
    }
}
