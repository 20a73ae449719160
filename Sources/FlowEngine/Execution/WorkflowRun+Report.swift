import FlowDSL
import FlowTasks
import Foundation

extension WorkflowRun {
    /// How the run ended, from its records: `cancelled` when interrupted, `failed` when a top-level
    /// step failed (a failure under `continue-on-error`, or a losing child of a group that still
    /// succeeded, does not fail the run), otherwise `succeeded`.
    /// A run whose setup failed (`setupFailed`: a service did not start) failed.
    package static func outcome(
        of workflow: Workflow, records: [String: StepRecord<StepResult>], interrupted: Bool, setupFailed: Bool = false
    ) -> RunOutcome {
        if interrupted { return .cancelled }
        if setupFailed { return .failed }
        let failed = workflow.steps.contains { step in
            guard let record = records[step.id] else { return false }
            return (record.state == .failed && !record.failureIgnored) || record.state == .cancelled
        }
        return failed ? .failed : .succeeded
    }

    /// `outcome(of:records:interrupted:setupFailed:)` of this run, `records` being its
    /// `allRecords` and `tally` theirs: a run none of whose records failed or was cancelled
    /// succeeded, which needs no look-up of each step's record by id (a tenth of a 10,000-step
    /// run's end, issue 32).
    package func outcome(
        records: [String: StepRecord<StepResult>], interrupted: Bool, setupFailed: Bool, tally: RecordTally
    ) -> RunOutcome {
        if !interrupted, !setupFailed, !tally.someFailedOrCancelled { return .succeeded }
        return Self.outcome(of: workflow, records: records, interrupted: interrupted, setupFailed: setupFailed)
    }

    /// The run's report: every step in declaration order, with every text masked.
    package func report(
        records: [String: StepRecord<StepResult>], interrupted: Bool, startedAt: Date, duration: Duration
    ) -> RunReport {
        let masker = masker
        // The steps of called files follow their `uses` step, as `deploy/publish`.
        let steps = workflow.qualifiedSteps(items: { Self.itemCount(records[$0]) }).map { qualified -> StepReport in
            let step = qualified.step
            let record = records[qualified.id]
            let started = record?.startedAt.map(\.seconds)
            let finished = record?.finishedAt.map(\.seconds)
            let outputs = (record?.produced?.outputs ?? [:]).mapValues { $0.mappingStrings { masker($0) } }
            // Each item's record is made when it is read (see `ItemReports`): not at all for the
            // JSON report, only for the drawn items in the HTML page and the trace.
            let items = record?.items.map { ItemReports(step: qualified.id, results: $0, masker: masker) }
            var report = StepReport(
                id: qualified.id, name: step.name, kind: step.kind.keyword, group: qualified.parent,
                location: Self.location(of: record?.error) ?? step.location.description,
                state: record?.state ?? .pending, startedAtSeconds: started,
                durationSeconds: started.flatMap { start in finished.map { $0 - start } },
                attempts: record?.output?.attempts ?? (record?.startedAt == nil ? 0 : 1), outputs: outputs,
                winner: record?.winner, error: record?.error.map { masker(String(describing: $0)) },
                request: record?.output?.request.map { masker($0.description) },
                repetitions: record?.repetitions,
                failureIgnored: record?.failureIgnored == true ? true : nil)
            report.items = items
            return report
        }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return RunReport(
            workflow: workflow.name ?? URL(fileURLWithPath: workflow.file).lastPathComponent, file: workflow.file,
            outcome: Self.outcome(
                of: workflow, records: records, interrupted: interrupted, setupFailed: setupError != nil),
            startedAt: formatter.string(from: startedAt), durationSeconds: duration.seconds, steps: steps,
            setupError: setupError)
    }

    /// How many items a `for-each` step's record has (finished or failed), nil when it has none.
    package static func itemCount(_ record: StepRecord<StepResult>?) -> Int? {
        record?.items?.count
    }

    /// The place an error points at, when it is a located step error.
    package static func location(of error: (any Error)?) -> String? {
        (error as? any LocatedFailure)?.location.description
    }
}
