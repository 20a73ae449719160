import FlowTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output readable without blocking.
///
/// Not Foundation's `Process`: on Linux its `run()` crashes now and then while scanning
/// `/proc/self/fd` (swift-corelibs-foundation pull request 5472), which these tests, with
/// hundreds of sockets open, hit.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let output: Int32

    private init(pid: pid_t, output: Int32) {
        self.pid = pid
        self.output = output
    }

    deinit {
        close(output)
    }

    /// Starts `executable` with `arguments`; standard error goes to /dev/null.
    static func start(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw TestFailure("pipe failed") }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw TestFailure("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        return ChildProcess(pid: pid, output: pipeEnds[0])
    }

    /// Whatever the child has written so far and not yet been read.
    func readAvailable() -> [UInt8] {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            guard count > 0 else { return collected }
            collected += buffer[0..<count]
        }
    }

    /// Kills the child and reaps it (after SIGKILL the wait is immediate).
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
