import FlowDSL
import FlowEngine
import FlowJournal
import Foundation

/// `flow run`'s journal options: where it is, and what to resume.
package struct JournalSettings: Sendable {
    /// The state folder (`--state-dir`, `FLOW_STATE_DIR`, or `.flow/` beside the workflow file).
    package var stateDirectory: String
    /// `--resume`.
    package var resume = false
    /// `--resume RUN-ID`: this run rather than the latest unfinished one of the file.
    package var runID: String?
    /// `--rerun ID`: steps whose unsafe request may be sent again although its outcome is unknown.
    package var reruns: Set<String> = []

    /// The settings of a journal in `stateDirectory`.
    package init(stateDirectory: String, resume: Bool = false, runID: String? = nil, reruns: Set<String> = []) {
        self.stateDirectory = stateDirectory
        self.resume = resume
        self.runID = runID
        self.reruns = reruns
    }
}

/// The journal of one `flow run`: opened (and the run begun or reopened) before any request is
/// sent, finished when the run ends.
struct DurableRun {
    let journal: Journal
    let runID: String
    let recorder: JournalRecorder
    /// What a resumed run keeps of the earlier one.
    let prior: PriorRun

    /// Why the journal cannot be used: the run does not start (exit 2).
    struct Problem: Error {
        let message: String
    }

    /// Opens the journal and begins the run, or with `--resume` reopens the earlier one after
    /// saying what is kept and what runs again. Throws, with a message, before anything is sent.
    static func open(
        _ settings: JournalSettings, workflow: Workflow, inputs: [String: InputValue], masker: SecretMasker,
        say: (String) -> Void
    ) throws(Problem) -> DurableRun {
        let file = JournalLocation.canonicalFile(workflow.file)
        guard let fileHash = StepDefinitionHash.fileHash(path: file) else {
            throw Problem(message: "cannot read \(workflow.file) to record it in the journal")
        }
        let journal: Journal
        do {
            journal = try Journal.open(stateDirectory: settings.stateDirectory)
        } catch {
            throw Problem(message: "\(error); or run with --no-journal (the run then cannot be resumed)")
        }
        do {
            guard settings.resume else {
                let sharingKey = StepDefinitionHash.sharingKey(of: workflow, fileHash: fileHash)
                let runID = try journal.beginRun(
                    NewRun(
                        file: file, fileHash: fileHash, stepHashes: [:], stepHashesKey: sharingKey,
                        inputs: inputs.mapValues { masker($0.description) }, startedAt: Date()))
                // Hashed on the journal's thread while the first steps run (about 0.3 µs a step),
                // and only when no earlier run of the same file text left them.
                if let sharingKey {
                    journal.record(.sharedStepHashes(key: sharingKey) { Self.stepHashes(of: workflow) })
                } else {
                    journal.record(.deferred { .stepHashes(run: runID, hashes: Self.stepHashes(of: workflow)) })
                }
                return DurableRun(
                    journal: journal, runID: runID, recorder: JournalRecorder(journal: journal, runID: runID),
                    prior: PriorRun())
            }
            let found =
                try settings.runID.map { id throws(JournalError) in try journal.run(id: id) }
                ?? journal.latestUnfinishedRun(file: file)
            guard let detail = found else {
                // Runs still going in other flows are never taken over; say so, as they explain why.
                let running = settings.runID == nil ? try journal.runs(file: file).filter { $0.state == .running } : []
                journal.close()
                let going = running.map { "'\($0.id)'" }.joined(separator: ", ")
                throw Problem(
                    message: settings.runID.map { "no run '\($0)' in \(settings.stateDirectory)" }
                        ?? "nothing to resume: no unfinished run of \(workflow.file) in \(settings.stateDirectory)"
                        + (running.isEmpty
                            ? "" : " (run\(running.count == 1 ? "" : "s") \(going) still running in another flow)"))
            }
            guard detail.run.file == file else {
                journal.close()
                throw Problem(message: "run '\(detail.run.id)' is a run of \(detail.run.file), not of \(file)")
            }
            // A run whose process is gone reads as interrupted; running is one still going.
            guard detail.run.state != .running else {
                journal.close()
                throw Problem(message: "run '\(detail.run.id)' of \(workflow.file) is still running in another flow")
            }
            guard detail.run.state != .succeeded else {
                journal.close()
                throw Problem(message: "run '\(detail.run.id)' succeeded; there is nothing to resume")
            }
            let hashes = StepDefinitionHash.hashes(of: workflow)
            let plan = ResumePlan(detail, workflow: workflow, hashes: hashes, reruns: settings.reruns)
            guard plan.unknownOutcomes.isEmpty else {
                journal.close()
                throw Problem(message: Self.unknownOutcomeMessage(plan.unknownOutcomes, run: detail.run.id))
            }
            try journal.reopenRun(id: detail.run.id, fileHash: fileHash, stepHashes: hashes)
            say(Self.announcement(plan, run: detail.run.id, workflow: workflow))
            return DurableRun(
                journal: journal, runID: detail.run.id,
                recorder: JournalRecorder(journal: journal, runID: detail.run.id), prior: plan.prior)
        } catch let problem as Problem {
            throw problem
        } catch {
            journal.close()
            throw Problem(message: "\(error)")
        }
    }

    /// Records the run's end and waits (without holding a thread) until the journal has it all;
    /// a warning when it could not.
    func finish(_ state: JournalRunState) async -> String? {
        journal.record(.runFinished(run: runID, state: state, at: Date()))
        let error: JournalError? = await withCheckedContinuation { continuation in
            journal.flush { continuation.resume(returning: $0) }
        }
        journal.close()
        return error.map { "flow: warning: the journal could not record the end of the run: \($0)\n" }
    }

    /// The workflow's step hashes, written straight into the journal's text for them.
    static func stepHashes(of workflow: Workflow) -> StepHashes {
        var hashes = StepHashes(shared: StepDefinitionHash.sharedStart(of: workflow))
        StepDefinitionHash.forEachRest(of: workflow) { id, rest in
            switch rest {
            case .hexDigits(let value): hashes.add(step: id, hexDigitsOf: value)
            case .text(let text): hashes.add(step: id, rest: text)
            }
        }
        return hashes
    }

    static func unknownOutcomeMessage(_ steps: [(step: String, items: [Int])], run: String) -> String {
        let names = steps.map { "'\($0.step)'" + itemsInDoubt($0.items) }.joined(separator: ", ")
        let reruns = steps.map { "--rerun \($0.step)" }.joined(separator: " ")
        let one = steps.count == 1 && steps[0].items.count <= 1
        return "cannot resume run '\(run)': step\(steps.count == 1 ? "" : "s") \(names) sent "
            + (one ? "a request that is not " : "requests that are not ")
            + "safe to repeat (no Idempotency-Key) and the run stopped before "
            + (one ? "its response was" : "their responses were") + " recorded, so "
            + "whether the server did the work is unknown. Check the server; to send "
            + (one ? "it" : "them") + " again, resume with "
            + "\(reruns). (An `Idempotency-Key: ${{ idempotencyKey() }}` header makes such a request safe to repeat.)"
    }

    /// " (items 1 and 4, counting from 0)": the `for-each` items whose request is in doubt, the
    /// first 20 of them; nothing for a step without items.
    private static func itemsInDoubt(_ items: [Int]) -> String {
        guard !items.isEmpty else { return "" }
        let sorted = items.sorted()
        var shown = sorted.prefix(20).map(String.init)
        if sorted.count > shown.count { shown.append("\(sorted.count - shown.count) more") }
        let list = shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
        return " (item\(items.count == 1 ? "" : "s") \(list), counting from 0)"
    }

    /// What the resumed run keeps and what it runs again, for standard error.
    private static func announcement(_ plan: ResumePlan, run: String, workflow: Workflow) -> String {
        let kept = workflow.allSteps.map(\.id).filter { plan.prior.records[$0] != nil }
        var text = "flow: resuming run \(run): \(kept.count) step\(kept.count == 1 ? "" : "s") kept"
        text += kept.isEmpty ? "" : " (\(kept.joined(separator: ", ")))"
        text += "\n"
        for (id, kept) in plan.keptItems {
            text += "flow: running '\(id)' again with \(kept) succeeded item\(kept == 1 ? "" : "s") kept\n"
        }
        for (id, why) in plan.rerunning {
            text += "flow: running '\(id)' again: \(why)\n"
        }
        return text
    }
}
