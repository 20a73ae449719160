import FlowTasks
import Foundation

/// The descriptors a command is started with, made by flow rather than by swift-subprocess.
///
/// swift-subprocess 1.0.2 makes a command's stdout pipe, then its stderr pipe, then opens
/// /dev/null for its stdin, each wrapped in a descriptor whose deinit traps ("FileDescriptor …
/// was not closed") unless it was closed first; when a later one fails (EMFILE: the descriptor
/// limit is reached) the earlier ones are dropped unclosed and the whole process dies of SIGILL.
/// Given descriptors of ours instead (`.fileDescriptor(_, closeAfterSpawningProcess:)`), it makes
/// none itself, and every path of its spawn closes what it was given.
struct CommandPipes {
    /// The ends flow reads.
    let stdoutRead: Int32
    let stderrRead: Int32
    /// The ends the command writes; swift-subprocess closes them once it has spawned (or failed to).
    let stdoutWrite: Int32
    let stderrWrite: Int32

    /// A failure to make the pipes, with the `errno` that said why.
    struct Failure: Error {
        let code: Int32
    }

    /// Both pipes, close-on-exec (swift-subprocess's spawn also closes every descriptor above 2 in
    /// the child); on failure nothing is left open.
    static func make() throws(Failure) -> CommandPipes {
        let out = try pipe()
        do {
            let err = try pipe()
            return CommandPipes(stdoutRead: out.0, stderrRead: err.0, stdoutWrite: out.1, stderrWrite: err.1)
        } catch {
            _ = close(out.0)
            _ = close(out.1)
            throw error
        }
    }

    private static func pipe() throws(Failure) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard SystemCall.pipe(&ends) == 0 else { throw Failure(code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// A descriptor of /dev/null that every command reads as its stdin, opened once and never
    /// closed (swift-subprocess is told not to close it).
    static func nullInput() throws(Failure) -> Int32 {
        let (descriptor, code) = nullDescriptor.withLock { descriptor -> (Int32, Int32) in
            if descriptor < 0 { descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            return (descriptor, descriptor < 0 ? errno : 0)
        }
        guard descriptor >= 0 else { throw Failure(code: code) }
        return descriptor
    }

    private static let nullDescriptor = LockedBox<Int32>(-1)

    /// Whether `code` says descriptors ran out (the process's limit, or the system's table).
    static func isExhaustion(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE
    }
}
