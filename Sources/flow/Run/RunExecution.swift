import Dispatch
import FlowKit
import Foundation

/// Runs a checked workflow for `flow run` through FlowKit's public API, which owns the run: this
/// renders its events, turns signals into its cancellation, prints the summary and maps its
/// outcome to the exit code.
struct RunExecution {
    /// The workflow run, as its log and summary show it.
    let workflow: FlowWorkflow
    let options: FlowRunOptions
    let logFormat: EventPrinter.Format

    func execute() async -> FlowExit {
        let terminal = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        let colors = terminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let log = EventPrinter(format: logFormat, colors: colors, workflow: workflow)
        // On a terminal (and not asked for JSON) a live view; otherwise one line per event.
        let live = terminal && logFormat == .plain ? LiveView(log: log, workflow: workflow) : nil
        // Signals are watched from before the run starts; one that comes before it has a handle
        // is kept and cancels it as soon as it has.
        let started = Locked(StartedRun())
        var observer = FlowRunObserver()
        // The events an app gets from FlowKit, unbuffered: the log shows what the public API says.
        observer.event = { event, hold in
            if let live { live.handle(event, hold: hold) } else { log.handle(event, hold: hold) }
        }
        observer.serviceReady = { log.serviceReady($0) }
        observer.serviceMoved = { log.serviceMoved($0) }
        observer.message = { StandardError.write($0) }
        observer.stepsStarting = {
            StandardOutput.flush()
            live?.start()
        }
        let run: FlowRun
        do {
            // The run's warnings are written here, before anything else of it.
            run = try workflow.start(options, observer: observerFinishing(observer, started: started, live: live))
        } catch {
            // What is left to fail here: reading the secrets (a line of a .env file), or what
            // `--only`, its files and `--service` name.
            if error.inOptions {
                StandardError.write(error.diagnostics.map { "flow run: \($0.message)\n" }.joined())
            } else {
                StandardError.write(error.diagnostics.map { "\($0.message)\n" }.joined())
            }
            return .invalid
        }
        let cancelNow = started.withLock { started in
            started.run = run
            return started.interrupted
        }
        if cancelNow { run.cancel() }
        let outcome = await run.outcome
        if outcome.stepsRan {
            RunSummary(outcome: outcome, workflow: workflow, colors: colors, json: logFormat == .json).print()
        }
        // The process exits right after: the run (its steps' graph, records and closures) is left
        // to the system rather than freed object by object, which took 2% of a 10,000-step run's
        // CPU (perf in bench/engine). The journal is already closed (`outcome` waits for it).
        keepUntilExit(started)
        return FlowExit(outcome.state)
    }

    /// Holds `run` for the rest of the process: nothing of it is released.
    private func keepUntilExit(_ run: Locked<StartedRun>) {
        _ = Unmanaged.passRetained(run)
    }

    /// `observer` with the signal watch, started now and stopped as the steps end.
    private func observerFinishing(
        _ observer: FlowRunObserver, started: Locked<StartedRun>, live: LiveView?
    ) -> FlowRunObserver {
        let interrupts = InterruptWatch(
            onInterrupt: {
                let run = started.withLock { started in
                    started.interrupted = true
                    return started.run
                }
                run?.cancel()
            },
            onQuit: {
                // Quitting at once still leaves a report of the run as it stood, so the previous
                // run's report is not mistaken for this one.
                let paths = started.withLock { $0.run }?.quitAtOnce() ?? []
                guard !paths.isEmpty else { return }
                StandardError.write(
                    "flow: quit at once; \(paths.joined(separator: ", ")) shows the run as it stood (steps still "
                        + "running are listed as running)\n")
            })
        var observer = observer
        observer.finishing = {
            await interrupts.stop()
            live?.stop()
            StandardOutput.flush()
        }
        return observer
    }
}

/// The run once started, and whether a signal came before it was.
private struct StartedRun: Sendable {
    var run: FlowRun?
    var interrupted = false
}

extension FlowExit {
    /// The exit code of a run's outcome: the one table from how a run ended to how flow exits.
    init(_ state: FlowOutcome.State) {
        switch state {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .cancelled: self = .interrupted
        case .invalid: self = .invalid
        }
    }
}

/// Turns SIGINT and SIGTERM into a cancellation of the run; a second signal kills every command,
/// calls `onQuit` and exits at once. Made and stopped on the main thread; the handlers run on
/// their own queue. Unchecked: `sources` is set once in `init`, and a source's `cancel` may be
/// called from any thread; the rest is in locked boxes.
final class InterruptWatch: @unchecked Sendable {
    /// Where the run is, as far as signals are concerned.
    private enum Phase {
        case running
        /// A second signal is quitting at once; it exits the process.
        case quitting
        /// The run is printing its summary and writing its reports: a second signal waits for it.
        case finishing
    }

    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "flow.signals")
    /// The signals seen so far.
    private let count = Locked(0)
    private let phase = Locked(Phase.running)

    init(onInterrupt: @escaping @Sendable () -> Void, onQuit: @escaping @Sendable () -> Void) {
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            let (count, phase) = (count, phase)
            source.setEventHandler {
                let seen = count.withLock { count in
                    count += 1
                    return count
                }
                if seen == 1 {
                    StandardError.write("\nflow: interrupted; cancelling what is in flight (again to quit at once)\n")
                    onInterrupt()
                    return
                }
                let quit = phase.withLock { phase in
                    guard phase == .running else { return false }
                    phase = .quitting
                    return true
                }
                // Finishing: the summary and reports take a moment, and then flow exits anyway.
                guard quit else { return }
                // The reports are written before anything is killed, so they show the steps that
                // were running as running; `onQuit` then kills every command and service. This
                // queue blocks from here on: the process is about to exit.
                onQuit()
                StandardOutput.flush()
                exit(FlowExit.interrupted.rawValue)
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    var fired: Bool { count.withLock { $0 > 0 } }

    /// Stops watching before the run's summary and reports. When a second signal is already
    /// quitting, never returns: that signal's handler exits the process.
    func stop() async {
        let quitting = phase.withLock { phase in
            if phase == .running { phase = .finishing }
            return phase == .quitting
        }
        while quitting { try? await Task.sleep(for: .seconds(60)) }
        for source in sources { source.cancel() }
    }
}
