import Dispatch
import FlowTasks
import Foundation

/// One started service: its process (in a process group of its own), the last lines it printed,
/// and how to stop it.
final class ServiceProcess: Sendable {
    /// How many of the last output lines are kept for an error message.
    static let tailLength = 20
    /// How many of the last stderr lines are kept besides: the two streams are read separately,
    /// so an error line can arrive ahead of a burst of stdout and must not be pushed out by it.
    static let errorTailLength = 5

    let launch: ServiceLaunch
    /// Completes when the process has exited (or fails when it could not start).
    let exit: Future<ProcessOutcome>
    private let group: LockedBox<pid_t>
    private let tail: LockedBox<OutputTail>
    /// The run's process groups, which the service's is one of.
    private let groups: ProcessGroups

    /// Starts the service's command at once.
    init(_ launch: ServiceLaunch, queue: DispatchQueue, groups: ProcessGroups) {
        self.launch = launch
        self.groups = groups
        let group = LockedBox<pid_t>(0)
        let tail = LockedBox(OutputTail())
        self.group = group
        self.tail = tail
        exit = ProcessRunner.run(
            launch.spec, on: queue, groups: groups,
            onLine: { line, stream, _ in tail.withLock { $0.append(line, isError: stream == .stderr) } },
            onStart: { pid in group.withLock { $0 = pid } })
    }

    /// The process id (and process group id), once started; 0 before.
    var pid: pid_t { group.withLock { $0 } }

    /// The last lines the service printed, stdout and stderr interleaved as they came.
    var lastLines: [String] { tail.withLock { $0.lines } }

    /// Stops the service: SIGTERM to its process group, SIGKILL after the grace period. The
    /// future completes once the process has exited (at most a little after the grace period).
    func stop(on queue: DispatchQueue) -> Future<Void> {
        guard !exit.isCompleted else { return .succeeded((), on: queue) }
        let pid = pid
        guard pid > 0 else {
            // Not spawned yet: cancelling makes the runner terminate it as soon as it exists.
            exit.cancel()
            return .succeeded((), on: queue)
        }
        groups.terminate(pid, grace: ServiceLaunch.terminationGrace)
        let exited = Promise<Void>(on: queue)
        exit.whenComplete(on: queue) { _ in exited.succeed(()) }
        // A safeguard: a process stuck in uninterruptible sleep must not hold flow forever.
        return exited.future.timeout(after: ServiceLaunch.terminationGrace + .seconds(2)).recover { _ in () }
    }
}

/// The last lines of a service's output, in the order they arrived: the last `tailLength` of both
/// streams, plus the last `errorTailLength` of stderr.
struct OutputTail {
    private var all: [(number: Int, line: String)] = []
    private var errors: [(number: Int, line: String)] = []
    private var count = 0

    mutating func append(_ line: String, isError: Bool) {
        count += 1
        all.append((count, line))
        if all.count > ServiceProcess.tailLength { all.removeFirst(all.count - ServiceProcess.tailLength) }
        guard isError else { return }
        errors.append((count, line))
        if errors.count > ServiceProcess.errorTailLength {
            errors.removeFirst(errors.count - ServiceProcess.errorTailLength)
        }
    }

    var lines: [String] {
        let kept = Set(all.map(\.number))
        return (errors.filter { !kept.contains($0.number) } + all).sorted { $0.number < $1.number }.map(\.line)
    }
}
