import Dispatch
import FlowDSL
import FlowEngine
import FlowHTTP
import FlowTasks
import Foundation

/// Runs a checked workflow for `flow run`: secrets, the run itself, live events, interrupts,
/// the summary and the reports; returns the exit code.
struct RunExecution {
    let workflow: Workflow
    let inputs: [String: InputValue]
    let secretsFile: String?
    let concurrency: Int?
    let logFormat: EventPrinter.Format
    let reports: [ReportFile]
    /// The workflow file's lines, for the source snippets under runtime failures.
    let sourceLines: [Substring]
    /// The lines of the files its `uses` steps call, by name, for failures inside them.
    var calledFiles: [String: [Substring]] = [:]
    /// `--only`: the one step to run, with the others' records (see `OnlyStep`).
    var only: OnlyStep?
    /// `--service NAME=URL`: services that run elsewhere and are not started.
    var externalServices: [String: ServiceEndpoint] = [:]
    /// The journal's folder and what to resume; nil without a journal (`--no-journal`, `--only`).
    var journal: JournalSettings?

    func execute() async -> FlowExit {
        let secrets: SecretStore
        do {
            secrets = try SecretStore.load(environment: ProcessInfo.processInfo.environment, file: secretsFile)
        } catch {
            StandardError.write("\(error)\n")
            return .invalid
        }
        for name in secrets.namesOfShortValues {
            StandardError.write(
                "flow: warning: secret '\(name)' is shorter than \(SecretStore.shortValueLength) characters; "
                    + "every occurrence of its value in the output and the reports is shown as ***, "
                    + "which can hide unrelated text\n")
        }
        let insecure = WorkflowRun.insecureSteps(workflow)
        if !insecure.isEmpty {
            StandardError.write(
                "flow: warning: TLS certificates are not checked (tls.insecure: true) for step"
                    + "\(insecure.count == 1 ? "" : "s") \(insecure.joined(separator: ", ")); anyone on the way "
                    + "to those servers can read and change the traffic\n")
        }
        let masker = secrets.masker
        let terminal = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
        let colors = terminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let log = EventPrinter(format: logFormat, colors: colors, workflow: workflow, masker: masker)
        // On a terminal (and not asked for JSON) a live view; otherwise one line per event.
        let live = terminal && logFormat == .plain ? LiveView(log: log, workflow: workflow) : nil
        // No command or service may outlive flow, even killed with SIGKILL (see ProcessReaper).
        ProcessReaper.enable(executable: FlowExecutable.path)
        // Before the client sizes its connection pool by the descriptors left (see DescriptorLimit).
        DescriptorLimit.raiseSoftLimit()
        let client = HTTPClient()
        defer { client.shutdown() }
        let endpoints: [String: ServiceEndpoint]
        do {
            endpoints = try ServiceEndpoint.allocate(for: workflow.services)
                .merging(externalServices) { _, external in external }
        } catch {
            StandardError.write("flow: \(error)\n")
            return .failed
        }
        // Attempt-level timing for the html and trace reports, recorded only when one is asked for.
        let recorder = reports.contains(where: \.needsTimeline) ? TimelineRecorder() : nil
        var options = RunOptions(inputs: inputs, secrets: secrets, concurrency: concurrency, services: endpoints)
        options.prior = only?.prior ?? [:]
        options.onlySteps = only?.own
        options.forEachSelection = only?.selection
        // Before any service starts or request is sent: a state folder that cannot be written stops here.
        var durable: DurableRun?
        if let journal {
            do {
                durable = try DurableRun.open(journal, workflow: workflow, inputs: inputs, masker: masker)
            } catch {
                StandardError.write("flow run: \(masker(error.message))\n")
                return .invalid
            }
        }
        if let durable {
            options.recorder = durable.recorder
            options.runID = durable.runID
            options.prior = durable.prior.records
            options.priorTransfers = durable.prior.transfers
            options.priorItems = durable.prior.items
        }
        @Sendable func makeRun(_ options: RunOptions) throws(RunSetupError) -> WorkflowRun {
            try WorkflowRun(
                workflow: workflow,
                options: options,
                client: client,
                onEvent: { event in
                    recorder?.handle(event)
                    if let live { live.handle(event) } else { log.handle(event) }
                })
        }
        var run: WorkflowRun
        let services: ServiceSet
        do {
            run = try makeRun(options)
        } catch {
            await durable?.finish("failed")
            writeDiagnostics(error.diagnostics, masker: masker)
            return .invalid
        }
        do {
            services = try ServiceSet(workflow: workflow, options: options)
        } catch {
            run.abandon()
            await durable?.finish("failed")
            writeDiagnostics(error.diagnostics, masker: masker)
            return .invalid
        }
        let startedAt = Date()
        let clock = ContinuousClock.now
        let waiting = LockedBox<Future<[ServiceReady]>?>(nil)
        // The run as built with the ports flow picked; built again if a service had to move.
        let current = LockedBox(run)
        let reportWriter = ReportWriter(
            reports: reports, current: current, startedAt: startedAt, clock: clock, recorder: recorder,
            sourceLines: sourceLines
        )
        let interrupts = InterruptWatch(
            onInterrupt: {
                waiting.withLock { $0 }?.cancel()
                current.withLock { $0 }.cancel()
            },
            onQuit: {
                // Quitting at once still leaves a report of the run as it stood, so the previous
                // run's report is not mistaken for this one.
                guard !reportWriter.reports.isEmpty else { return }
                reportWriter.write(records: reportWriter.run.allRecords, interrupted: true)
                let paths = reportWriter.reports.map(\.path).joined(separator: ", ")
                StandardError.write(
                    "flow: quit at once; \(paths) shows the run as it stood (steps still running are listed as running)\n"
                )
            })
        // Services that did not start (or an interrupt while they did) still leave a run behind: its
        // steps skipped or cancelled but those the language runs after a failure or an interrupt,
        // its summary and every report (an older report must not keep saying `succeeded`).
        let setupFailure =
            services.isEmpty
            ? nil : await startServices(services, client: client, waiting: waiting, interrupts: interrupts, log: log)
        // A service started again on another port (its own was taken): the run was built with the
        // port first picked (`services.X.url`, `defaults.http.base-url`), so it is built again.
        if setupFailure == nil, services.endpoints != options.services {
            options.services = services.endpoints
            do {
                let rebuilt = try makeRun(options)
                run.abandon()
                run = rebuilt
                current.withLock { $0 = rebuilt }
                // An interrupt that cancelled the first run before it was replaced.
                if interrupts.fired { rebuilt.cancel() }
            } catch {
                try? await services.stop().value
                await ProcessGroups.terminateAll(grace: .seconds(1))
                await interrupts.stop()
                run.abandon()
                await durable?.finish("failed")
                writeDiagnostics(error.diagnostics, masker: masker)
                return .invalid
            }
        }
        live?.start()
        let records: [String: StepRecord<StepResult>]
        do {
            // Awaiting suspends without holding a thread; the run itself lives on Dispatch queues.
            // An interrupt has already cancelled the run: `start` runs its always() steps.
            if let setupFailure, !interrupts.fired {
                _ = try await run.startAfterFailedSetup(setupFailure).value
            } else {
                _ = try await run.start().value
            }
        } catch {
            // The scheduler's future never fails; keep whatever was recorded.
        }
        // The records of the steps of called files (`deploy/publish`) too.
        records = run.allRecords
        // With --only the other steps' records are given, not run: the summary shows the step's own.
        let shown = only?.ownRecords(records) ?? records
        if setupFailure == nil { try? await services.stop().value }
        // No command may outlive the run: finish off any process group a cancellation left behind.
        await ProcessGroups.terminateAll(grace: .seconds(1))
        await interrupts.stop()
        live?.stop()
        StandardOutput.flush()
        let interrupted = interrupts.fired
        let duration = ContinuousClock.now - clock
        if setupFailure != nil, !records.values.contains(where: { $0.startedAt != nil }) {
            StandardError.write("flow: \(interrupted ? "interrupted" : "failed") — no step ran\n")
        }
        RunSummary(
            workflow: workflow, records: shown, masker: masker, interrupted: interrupted, duration: duration,
            colors: colors, json: logFormat == .json, sourceLines: sourceLines, calledFiles: calledFiles,
            setupFailed: setupFailure != nil
        ).print()
        let outcome = WorkflowRun.outcome(
            of: workflow, records: records, interrupted: interrupted, setupFailed: setupFailure != nil)
        switch outcome {
        case .cancelled: await durable?.finish("interrupted")
        case .succeeded: await durable?.finish("succeeded")
        case .failed: await durable?.finish("failed")
        }
        // A cookie jar that could not be saved (`defaults.http.cookies.save`) fails the run like a report.
        if let cookieError = run.cookieSaveError { StandardError.write("flow: \(cookieError)\n") }
        // The full report only when one is written (see RunSummary).
        let reportsWritten =
            reportWriter.write(records: records, interrupted: interrupted, duration: duration)
            && run.cookieSaveError == nil
        if let only {
            let written = only.write(records, masker: masker)
            let exit = only.exit(records, interrupted: interrupted)
            return exit == .succeeded && !(written && reportsWritten && setupFailure == nil) ? .failed : exit
        }
        switch outcome {
        case .cancelled: return .interrupted
        case .succeeded where reportsWritten: return .succeeded
        case .succeeded, .failed: return .failed
        }
    }

    /// Writes runtime problems found before the run as parse errors are written: place, source
    /// line with a caret, hint.
    private func writeDiagnostics(_ diagnostics: [Diagnostic], masker: SecretMasker) {
        StandardError.write(
            diagnostics.map { diagnostic in
                let file = diagnostic.location?.file ?? workflow.file
                let lines = file == workflow.file ? sourceLines : calledFiles[file] ?? []
                return masker(diagnostic.rendered(sourceLines: lines, file: workflow.file))
            }.joined())
    }

    /// Starts the services and waits until all are ready (printing a line for each); nil then.
    /// When one fails or the wait is interrupted, stops them all, says why and returns the reason.
    private func startServices(
        _ services: ServiceSet, client: HTTPClient, waiting: LockedBox<Future<[ServiceReady]>?>,
        interrupts: InterruptWatch, log: EventPrinter
    ) async -> String? {
        let started = services.start(client: client, onMove: { log.serviceMoved($0) })
        waiting.withLock { $0 = started }
        // An interrupt that came before the future was stored had nothing to cancel.
        if interrupts.fired { started.cancel() }
        do {
            for ready in try await started.value { log.serviceReady(ready) }
            StandardOutput.flush()
            return nil
        } catch {
            try? await services.stop().value
            await ProcessGroups.terminateAll(grace: .seconds(1))
            StandardOutput.flush()
            if interrupts.fired {
                StandardError.write("flow: interrupted while starting the services\n")
                return "interrupted while starting the services"
            }
            if let failure = error as? ServiceError {
                // The service's last lines follow the message, then the line that declares it.
                StandardError.write(
                    "\(failure.location): error: \(failure)\n"
                        + Diagnostic.snippet(at: failure.location, sourceLines: sourceLines))
                return "\(failure.location): \(failure)"
            }
            StandardError.write("flow: the services could not start: \(error)\n")
            return "the services could not start: \(error)"
        }
    }
}

/// Writes a run's `--report` files.
struct ReportWriter: Sendable {
    let reports: [ReportFile]
    /// The run, which is built again when a service moved to another port (see `RunExecution`).
    let current: LockedBox<WorkflowRun>
    let startedAt: Date
    let clock: ContinuousClock.Instant
    /// The run's attempts and transfers over time, when an html or trace report is written.
    let recorder: TimelineRecorder?
    /// The workflow file's lines, for the HTML report's failure snippets.
    let sourceLines: [Substring]

    /// The run as it stands.
    var run: WorkflowRun { current.withLock { $0 } }

    /// Writes every report (each atomically, so a reader never sees half of one); false when one
    /// could not be written, after saying so.
    @discardableResult
    func write(records: [String: StepRecord<StepResult>], interrupted: Bool, duration: Duration? = nil) -> Bool {
        guard !reports.isEmpty else { return true }
        let run = run
        let report = run.report(
            records: records, interrupted: interrupted, startedAt: startedAt,
            duration: duration ?? ContinuousClock.now - clock)
        var written = true
        for file in reports {
            do {
                switch file.format {
                case "junit": try file.write(report.junitText())
                case "html":
                    try file.write(
                        HTMLReport(
                            report: report, timelines: recorder?.steps ?? [:], workflow: run.workflow,
                            sourceLines: sourceLines, masker: run.masker
                        ).text())
                case "trace":
                    try file.write(
                        TraceReport(report: report, timelines: recorder?.steps ?? [:], masker: run.masker).text())
                default: try file.write(bytes: report.jsonBytes())
                }
            } catch {
                // Every report is made in memory without failing: only writing its file can fail.
                StandardError.write("flow run: \(error.message)\n")
                written = false
            }
        }
        return written
    }
}

/// Turns SIGINT and SIGTERM into a cancellation of the run; a second signal kills every command,
/// calls `onQuit` and exits at once. Made and stopped on the main thread; the handlers run on
/// their own queue.
final class InterruptWatch {
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
    private let count = LockedBox(0)
    private let phase = LockedBox(Phase.running)

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
                // were running as running. Quitting at once still leaves no command or service
                // behind. This queue blocks from here on: the process is about to exit.
                onQuit()
                ProcessGroups.killAll()
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
