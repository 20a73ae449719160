import FlowDSL
import FlowEngine
import FlowJournal

/// What `flow run --resume` keeps of an unfinished run and what it runs again, and why.
package struct ResumePlan {
    /// The records of the steps kept: they do not run, and keep their outputs.
    var prior = PriorRun()
    /// The steps that run again although they had succeeded, with why, in file order.
    var rerunning: [(id: String, why: String)] = []
    /// Steps that sent a request whose repetition is not safe and whose outcome is unknown, not
    /// named by `--rerun`, with the `for-each` items that sent one (none for a step without
    /// items): the resume stops.
    var unknownOutcomes: [(step: String, items: [Int])] = []
    /// `for-each` steps that run again with some of their items kept: id, items kept, items.
    var keptItems: [(id: String, kept: Int)] = []

    /// The plan for resuming `detail` with the file as it is now (`hashes`), accepting to send
    /// again the unsafe requests of the steps in `reruns`.
    init(_ detail: JournalRunDetail, workflow: Workflow, hashes: [String: String], reruns: Set<String>) {
        let changed = Set(hashes.keys.filter { detail.stepHashes[$0] != hashes[$0] })
        let invalidated = StepDefinitionHash.invalidated(by: changed, in: workflow)
        var entries: [String: (state: StepState, outputs: StepOutputs)] = [:]
        var secretHolders: Set<String> = []
        for step in detail.steps where step.item == nil && step.state == .succeeded {
            if step.outputs.containsSecret {
                secretHolders.insert(step.step)
            } else if let outputs = StepOutputs(step.outputs) {
                entries[step.step] = (.succeeded, outputs)
            }
        }
        for step in workflow.allSteps {
            if let why = invalidated[step.id], entries[step.id] != nil || secretHolders.contains(step.id) {
                rerunning.append((step.id, why))
                entries[step.id] = nil
            } else if secretHolders.contains(step.id) {
                rerunning.append((step.id, "its outputs held a secret value, which the journal does not keep"))
            }
        }
        let logged = Self.loggedItems(detail, workflow: workflow)
        prior = PriorRun(
            records: JournalEntry.decode(entries, items: logged, workflow: workflow),
            transfers: detail.transfers.map {
                TransferSession(
                    step: $0.step, item: $0.item, kind: $0.kind, target: $0.target, bytesConfirmed: $0.bytesConfirmed,
                    fileIdentity: $0.fileIdentity)
            },
            items: logged.filter { invalidated[$0.key] == nil }.mapValues { $0.mapValues(\.prior) })
        keptItems = workflow.allSteps.compactMap { step in
            guard prior.records[step.id] == nil, let items = prior.items[step.id], !items.isEmpty else { return nil }
            return (step.id, items.count)
        }
        for step in detail.steps where step.unsafeInFlight {
            let top = Self.topLevel(step.step, in: workflow)
            // A step kept is not run again; one named by --rerun is sent again knowingly.
            guard prior.records[top] == nil, !reruns.contains(step.step), !reruns.contains(top) else { continue }
            if let index = unknownOutcomes.firstIndex(where: { $0.step == step.step }) {
                if let item = step.item { unknownOutcomes[index].items.append(item) }
            } else {
                unknownOutcomes.append((step.step, step.item.map { [$0] } ?? []))
            }
        }
    }

    /// The items that succeeded, with their values, outputs and attempts, of the `for-each` steps
    /// of this file: a step kept gets its items back from them (a step's end does not repeat
    /// them, see `JournalEntry.decode`), and a step that runs again keeps them — none of a step
    /// whose definition (or a step it depends on) changed. A kept item runs again all the same
    /// when its value differs now (see `ForEachRun`).
    static func loggedItems(_ detail: JournalRunDetail, workflow: Workflow) -> [String: [Int: LoggedItem]] {
        var items: [String: [Int: LoggedItem]] = [:]
        for step in detail.steps where step.state == .succeeded {
            guard let index = step.item, workflow.step(step.step)?.forEach != nil,
                let text = step.outputs.json, let item = PriorItem(jsonText: text)
            else { continue }
            items[step.step, default: [:]][index] = LoggedItem(prior: item, attempts: step.attempts)
        }
        return items
    }

    /// Why `--rerun` names no step of `workflow`, or `nil`: an id names a step of the file, or a
    /// step it ran (`deploy/publish`, `group[2]/child`) through the step it belongs to.
    package static func unknownReruns(_ ids: [String], in workflow: Workflow) -> String? {
        let unknown = ids.filter { workflow.step(topLevel($0, in: workflow)) == nil }
        guard let first = unknown.first else { return nil }
        let names = workflow.allSteps.map(\.id)
        let hint =
            Suggestion.closest(to: first, in: names).map { "did you mean '\($0)'?" }
            ?? "its steps are \(names.prefix(10).map { "'\($0)'" }.joined(separator: ", "))\(names.count > 10 ? ", …" : "")"
        let listed = unknown.map { "'\(Echo.text($0))'" }.joined(separator: ", ")
        return "--rerun names no step of the workflow: \(listed); \(hint)"
    }

    /// The step of the workflow a recorded id belongs to: `deploy/publish` (a called file's step)
    /// and `group[2]/child` (a `for-each` group's item) to the step that ran them.
    static func topLevel(_ id: String, in workflow: Workflow) -> String {
        guard workflow.step(id) == nil else { return id }
        let head = id.prefix { $0 != "/" && $0 != "[" }
        return String(head)
    }
}

extension StepOutputs {
    /// What the run reads back of what the journal kept, case for case; nil when nothing was kept.
    fileprivate init?(_ kept: JournalOutputs) {
        switch kept {
        case .none: return nil
        case .stateOnly: self = .stateOnly
        case .json(let text): self = .json(text)
        case .secret: self = .secret
        }
    }
}
