import FlowDSL
import FlowEngine
import FlowHTTP
import FlowJournal
import FlowTasks
import Foundation

/// How a whole run ended, all of it counted: the steps, the services, the journal, the reports
/// and `--only`'s files. The CLI maps it to an exit code (`FlowExit`), an app reads it.
package enum RunVerdict: Sendable, Equatable {
    /// The workflow succeeded and everything asked for was written.
    case succeeded
    /// It ran and failed, or a report, the cookie jar or an `--only` file could not be written.
    case failed
    /// It was cancelled (Ctrl-C, SIGTERM, `cancel()`): `always()` steps ran, reports were written.
    case cancelled
    /// Nothing ran: a secret, the journal or the run's setup is invalid.
    case invalid
}

/// Everything one run is given: the checked workflow and what `flow run`'s options say.
package struct RunSettings: Sendable {
    /// The checked workflow.
    package var workflow: Workflow
    /// Input values, already checked against their declared types.
    package var inputs: [String: InputValue] = [:]
    /// The secrets, already read (see `SecretStore.load`).
    package var secrets: SecretStore
    /// Overrides the workflow's `concurrency`.
    package var concurrency: Int?
    /// Reports to write when the run ends (or is quit at once).
    package var reports: [ReportFile] = []
    /// The workflow file's lines, for the source snippets under runtime failures.
    package var sourceLines: [Substring] = []
    /// The lines of the files its `uses` steps call, by name, for failures inside them.
    package var calledFiles: [String: [Substring]] = [:]
    /// `--only`: the one step to run, with the others' records (see `OnlyStep`).
    package var only: OnlyStep?
    /// `--service NAME=URL`: services that run elsewhere and are not started.
    package var externalServices: [String: ServiceEndpoint] = [:]
    /// The journal's folder and what to resume; nil without a journal.
    package var journal: JournalSettings?
    /// The flow binary that reaps the run's processes if this process dies (`ProcessReaper`); nil
    /// for none (an app whose executable is not flow).
    package var reaper: String?
    /// The handlers of the workflow's `call` steps; none for the command line.
    package var hostSteps = HostStepRegistry()

    /// Settings for a run of `workflow` with `secrets`.
    package init(workflow: Workflow, secrets: SecretStore) {
        self.workflow = workflow
        self.secrets = secrets
    }
}

/// Where a run tells what happens to it besides its outcome. Every callback may come from any
/// thread; step events come in order, on the run's queue.
package struct RunObserver: Sendable {
    /// A step's event (started, progress, finished), in the order the scheduler decided it.
    package var event: @Sendable (SchedulerEvent<StepResult>) -> Void = { _ in }
    /// A service passed its readiness check.
    package var serviceReady: @Sendable (FlowServiceReady) -> Void = { _ in }
    /// A service is started again on another port.
    package var serviceMoved: @Sendable (FlowServiceMove) -> Void = { _ in }
    /// A line of text for standard error (a warning, why the run could not start), masked, with
    /// its newline.
    package var message: @Sendable (String) -> Void = { _ in }
    /// The services are ready: the steps are about to start.
    package var stepsStarting: @Sendable () -> Void = {}
    /// The steps are over and every process is gone (or the run never started); awaited once, on
    /// every path, before the journal's end and the reports (the CLI stops its live view and its
    /// signal handling here).
    package var finishing: @Sendable () async -> Void = {}

    /// An observer that hears nothing.
    package init() {}
}

/// How a run ended, with everything the CLI's summary and an app's outcome are made of.
package struct RunSessionOutcome: Sendable {
    /// The verdict, all of it counted.
    package let verdict: RunVerdict
    /// Every step's record (the steps of called files too, by qualified id); empty when nothing ran.
    package let records: [String: StepRecord<StepResult>]
    /// The records a summary shows: with `--only`, the step's own.
    package let shownRecords: [String: StepRecord<StepResult>]
    /// Whether the run was cancelled.
    package let interrupted: Bool
    /// Whether the services failed to start (the steps were skipped but `always()` ones).
    package let setupFailed: Bool
    /// How long it took.
    package let duration: Duration
    /// Whether the run got as far as its steps (the services' start included): false when it
    /// stopped before, and there is nothing to summarise.
    package let ran: Bool
    /// The workflow as run (its settings computed).
    package let workflow: Workflow
    /// What the steps alone say, from every record (`WorkflowRun.outcome`), once the run got as
    /// far as its steps; nil otherwise. Kept so that the summary and the outcome an app gets do
    /// not walk every step again (issue 32).
    package var stepsOutcome: RunOutcome? = nil
    /// `records` counted (see `RecordTally`), once the run got as far as its steps; nil otherwise.
    package var tally: RecordTally? = nil
}

/// One run of a workflow, owned whole by the engine: its secrets' warnings, its services, its
/// processes (none outlives it), its journal (begun before anything is sent, finished with the
/// outcome), its reports, and what a cancelled run records. `flow run` is one client of it.
package final class RunSession: Sendable {
    package let settings: RunSettings
    /// Masks every secret value in text the run produces.
    package var masker: SecretMasker { settings.secrets.masker }
    /// Warnings to show before the run (short secrets, TLS checks turned off), each with its newline.
    package let warnings: [String]
    /// The run's processes: ended when it ends, or at once when quitting.
    private let processGroups = ProcessGroups()
    private let state = LockedBox(State())

    private struct State {
        var cancelled = false
        /// The services' start, while it is waited for.
        var waiting: Future<[ServiceReady]>?
        /// The run, once built (built again when a service moved to another port).
        var run: WorkflowRun?
        /// The report writer, once the run is built.
        var reports: ReportWriter?
    }

    /// A session for `settings`; nothing starts before `run`.
    package init(_ settings: RunSettings) {
        self.settings = settings
        var warnings: [String] = []
        for name in settings.secrets.namesOfShortValues {
            warnings.append(
                "flow: warning: secret '\(name)' is shorter than \(SecretStore.shortValueLength) characters; "
                    + "every occurrence of its value in the output and the reports is shown as ***, "
                    + "which can hide unrelated text\n")
        }
        let insecure = WorkflowRun.insecureSteps(settings.workflow)
        if !insecure.isEmpty {
            warnings.append(
                "flow: warning: TLS certificates are not checked (tls.insecure: true) for step"
                    + "\(insecure.count == 1 ? "" : "s") \(insecure.joined(separator: ", ")); anyone on the way "
                    + "to those servers can read and change the traffic\n")
        }
        self.warnings = warnings
    }

    /// Whether `cancel` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the run as Ctrl-C does: the services' start stops, transfers are aborted, processes
    /// are stopped, `always()` steps still run, and the run ends `cancelled` with its reports.
    package func cancel() {
        let (waiting, run) = state.withLock { state in
            state.cancelled = true
            return (state.waiting, state.run)
        }
        waiting?.cancel()
        run?.cancel()
    }

    /// For quitting at once (a second Ctrl-C): writes the reports as the run stands (steps still
    /// running listed as running) and returns their paths; then kills every process of the run.
    /// Blocks the calling thread, which is about to exit the process.
    package func quitAtOnce() -> [String] {
        let writer = state.withLock { $0.reports }
        var paths: [String] = []
        if let writer, !writer.reports.isEmpty, let run = state.withLock({ $0.run }) {
            writer.write(run: run, records: run.allRecords, interrupted: true, say: { _ in })
            paths = writer.reports.map(\.path)
        }
        processGroups.killAll()
        return paths
    }

    /// Runs the workflow to its end and returns how it ended; `observer` hears what happens.
    package func run(_ observer: RunObserver) async -> RunSessionOutcome {
        let finished = LockedBox(false)
        var once = observer
        once.finishing = {
            let first = finished.withLock { finished in
                defer { finished = true }
                return !finished
            }
            if first { await observer.finishing() }
        }
        let outcome = await execute(once)
        await once.finishing()
        return outcome
    }

    private func execute(_ observer: RunObserver) async -> RunSessionOutcome {
        let workflow = settings.workflow
        let masker = masker
        let clock = ContinuousClock.now
        func invalid() -> RunSessionOutcome {
            RunSessionOutcome(
                verdict: .invalid, records: [:], shownRecords: [:], interrupted: isCancelled, setupFailed: false,
                duration: ContinuousClock.now - clock, ran: false, workflow: workflow)
        }
        // No command or service may outlive flow, even killed with SIGKILL (see ProcessReaper).
        if let reaper = settings.reaper { ProcessReaper.enable(executable: reaper) }
        // Before the client sizes its connection pool by the descriptors left (see DescriptorLimit).
        DescriptorLimit.raiseSoftLimit()
        let client = HTTPClient()
        defer { client.shutdown() }
        let endpoints: [String: ServiceEndpoint]
        do {
            endpoints = try ServiceEndpoint.allocate(for: workflow.services)
                .merging(settings.externalServices) { _, external in external }
        } catch {
            observer.message("flow: \(error)\n")
            return RunSessionOutcome(
                verdict: .failed, records: [:], shownRecords: [:], interrupted: false, setupFailed: true,
                duration: ContinuousClock.now - clock, ran: false, workflow: workflow)
        }
        // Attempt-level timing for the html and trace reports, recorded only when one is asked for.
        let recorder = settings.reports.contains(where: \.needsTimeline) ? TimelineRecorder() : nil
        let only = settings.only
        var options = RunOptions(
            inputs: settings.inputs, secrets: settings.secrets, concurrency: settings.concurrency, services: endpoints)
        options.processGroups = processGroups
        options.hostSteps = settings.hostSteps
        options.prior = only?.prior ?? [:]
        options.onlySteps = only?.own
        options.forEachSelection = only?.selection
        // Before any service starts or request is sent: a state folder that cannot be written stops here.
        var durable: DurableRun?
        if let journal = settings.journal {
            do {
                durable = try DurableRun.open(
                    journal, workflow: workflow, inputs: settings.inputs, masker: masker,
                    say: { observer.message(masker($0)) })
            } catch {
                observer.message("flow run: \(masker(error.message))\n")
                return invalid()
            }
        }
        if let durable {
            options.recorder = durable.recorder
            options.runID = durable.runID
            options.prior = durable.prior.records
            options.priorTransfers = durable.prior.transfers
            options.priorItems = durable.prior.items
        }
        let journal = durable
        func finishJournal(_ state: JournalRunState) async {
            if let warning = await journal?.finish(state) { observer.message(warning) }
        }
        @Sendable func makeRun(_ options: RunOptions) throws(RunSetupError) -> WorkflowRun {
            try WorkflowRun(
                workflow: workflow, options: options, client: client,
                onEvent: { event in
                    recorder?.handle(event)
                    observer.event(event)
                })
        }
        var run: WorkflowRun
        let services: ServiceSet
        do {
            run = try makeRun(options)
        } catch {
            await finishJournal(.failed)
            observer.message(diagnosticsText(error.diagnostics))
            return invalid()
        }
        do {
            services = try ServiceSet(workflow: workflow, options: options)
        } catch {
            run.abandon()
            await finishJournal(.failed)
            observer.message(diagnosticsText(error.diagnostics))
            return invalid()
        }
        let reportWriter = ReportWriter(
            reports: settings.reports, startedAt: Date(), clock: clock, recorder: recorder,
            sourceLines: settings.sourceLines)
        let cancelledEarly = state.withLock { state in
            state.run = run
            state.reports = reportWriter
            return state.cancelled
        }
        if cancelledEarly { run.cancel() }
        // Services that did not start (or a cancellation while they did) still leave a run behind:
        // its steps skipped or cancelled but those the language runs after a failure or an
        // interrupt, its summary and every report (an older report must not keep saying `succeeded`).
        let setupFailure =
            services.isEmpty ? nil : await startServices(services, client: client, observer: observer)
        // A service started again on another port (its own was taken): the run was built with the
        // port first picked (`services.X.url`, `defaults.http.base-url`), so it is built again.
        if setupFailure == nil, services.endpoints != options.services {
            options.services = services.endpoints
            do {
                let rebuilt = try makeRun(options)
                run.abandon()
                run = rebuilt
                // A cancellation that reached the first run before it was replaced.
                let cancelled = state.withLock { state in
                    state.run = rebuilt
                    return state.cancelled
                }
                if cancelled { rebuilt.cancel() }
            } catch {
                try? await services.stop().value
                await processGroups.terminateAll(grace: .seconds(1))
                await observer.finishing()
                run.abandon()
                await finishJournal(.failed)
                observer.message(diagnosticsText(error.diagnostics))
                return invalid()
            }
        }
        observer.stepsStarting()
        do {
            // Awaiting suspends without holding a thread; the run itself lives on Dispatch queues.
            // A cancellation has already cancelled the run: `start` runs its always() steps.
            if let setupFailure, !isCancelled {
                _ = try await run.startAfterFailedSetup(setupFailure).value
            } else {
                _ = try await run.start().value
            }
        } catch {
            // The scheduler's future never fails; keep whatever was recorded.
        }
        // The records of the steps of called files (`deploy/publish`) too.
        let records = run.allRecords
        if setupFailure == nil { try? await services.stop().value }
        // No command may outlive the run: finish off any process group a cancellation left behind.
        await processGroups.terminateAll(grace: .seconds(1))
        await observer.finishing()
        let interrupted = isCancelled
        let duration = ContinuousClock.now - clock
        if setupFailure != nil, !records.values.contains(where: { $0.startedAt != nil }) {
            observer.message("flow: \(interrupted ? "interrupted" : "failed") — no step ran\n")
        }
        // One pass over the records for the outcome, the summary's counts and its failed steps.
        let tally = RecordTally(records)
        let outcome = run.outcome(
            records: records, interrupted: interrupted, setupFailed: setupFailure != nil, tally: tally)
        switch outcome {
        case .cancelled: await finishJournal(.interrupted)
        case .succeeded: await finishJournal(.succeeded)
        case .failed: await finishJournal(.failed)
        }
        // A cookie jar that could not be saved (`defaults.http.cookies.save`) fails the run like a report.
        if let cookieError = run.cookieSaveError { observer.message("flow: \(cookieError)\n") }
        let reportsWritten =
            reportWriter.write(
                run: run, records: records, interrupted: interrupted, duration: duration, say: observer.message)
            && run.cookieSaveError == nil
        let verdict: RunVerdict
        if let only {
            let written = only.write(records, masker: masker, say: observer.message)
            let alone = only.verdict(records, interrupted: interrupted)
            verdict = alone == .succeeded && !(written && reportsWritten && setupFailure == nil) ? .failed : alone
        } else {
            switch outcome {
            case .cancelled: verdict = .cancelled
            case .succeeded where reportsWritten: verdict = .succeeded
            case .succeeded, .failed: verdict = .failed
            }
        }
        return RunSessionOutcome(
            verdict: verdict, records: records,
            // With --only the other steps' records are given, not run: the summary shows the step's own.
            shownRecords: only?.ownRecords(records) ?? records, interrupted: interrupted,
            setupFailed: setupFailure != nil, duration: duration, ran: true, workflow: run.workflow,
            stepsOutcome: outcome, tally: tally)
    }

    /// Runtime problems found before the run, as parse errors are written: place, source line with
    /// a caret, hint.
    private func diagnosticsText(_ diagnostics: [Diagnostic]) -> String {
        let workflow = settings.workflow
        return diagnostics.map { diagnostic in
            let file = diagnostic.location?.file ?? workflow.file
            let lines = file == workflow.file ? settings.sourceLines : settings.calledFiles[file] ?? []
            return masker(diagnostic.rendered(sourceLines: lines, file: workflow.file))
        }.joined()
    }

    /// Starts the services and waits until all are ready (telling the observer of each); nil then.
    /// When one fails or the wait is cancelled, stops them all, says why and returns the reason.
    private func startServices(_ services: ServiceSet, client: HTTPClient, observer: RunObserver) async -> String? {
        let masker = masker
        let started = services.start(
            client: client, onMove: { observer.serviceMoved(FlowServiceMove($0, masker: masker)) })
        // A cancellation that came before the future was stored had nothing to cancel.
        let cancelled = state.withLock { state in
            state.waiting = started
            return state.cancelled
        }
        if cancelled { started.cancel() }
        do {
            for ready in try await started.value { observer.serviceReady(FlowServiceReady(ready)) }
            return nil
        } catch {
            try? await services.stop().value
            await processGroups.terminateAll(grace: .seconds(1))
            if isCancelled {
                observer.message("flow: interrupted while starting the services\n")
                return "interrupted while starting the services"
            }
            if let failure = error as? ServiceError {
                // The service's last lines follow the message, then the line that declares it.
                observer.message(
                    masker(
                        "\(failure.location): error: \(failure)\n"
                            + Diagnostic.snippet(at: failure.location, sourceLines: settings.sourceLines)))
                return "\(failure.location): \(failure)"
            }
            observer.message(masker("flow: the services could not start: \(error)\n"))
            return "the services could not start: \(error)"
        }
    }
}
