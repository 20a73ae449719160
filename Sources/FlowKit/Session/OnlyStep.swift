import FlowDSL
import FlowEngine
import Foundation

/// `flow run FILE --only ID`: one top-level step (with everything it contains) run on its own,
/// its needs' records read from `--outputs-from` files, its own written to `--outputs-to`. Every
/// other step of the file is given to the scheduler as already final (see `RunOptions.prior`), so
/// the step's `if`, `steps.X` expressions and status functions see what the whole run would show.
package struct OnlyStep: Sendable {
    /// The step's id.
    let id: String
    /// The ids of the step and the steps inside it (a group's children, at every depth).
    let own: Set<String>
    /// A final record for every other step: read from the files, or `skipped` for steps that are
    /// neither recorded nor the step's needs (they do not run and no expression of the step reads them).
    let prior: [String: StepRecord<StepResult>]
    /// The records read from the files (of those, only the failures are written again to
    /// `--outputs-to`: see `upstreamFailures`).
    let given: [String: StepRecord<StepResult>]
    /// Where to write the records, if anywhere.
    let outputsTo: String?
    /// The step itself.
    let step: Step
    /// `--items-to` / `--item`: part of a `for-each` step (an exported workflow's pods).
    var selection: ForEachSelection?
    /// `--items-to`: where the list of item indices goes.
    var itemsTo: String?
    /// `--status-to`: the small record for item pods (see `OnlyStep+Status.swift`).
    var status: StatusRecord?

    /// Reads the files and checks the step; a message (exit 2) when `id` is not a top-level step,
    /// a file cannot be read, or a need's record is missing. `item` is `--item`: an index, or
    /// one entry of the list `--items-to` wrote (see `GivenItem`).
    package static func prepare(
        workflow: Workflow, id: String, outputsFrom: [String], outputsTo: String?, item: String? = nil,
        itemsTo: String? = nil
    ) throws(Problem) -> OnlyStep {
        guard let step = workflow.steps.first(where: { $0.id == id }) else {
            if let nested = workflow.allSteps.first(where: { $0.id == id }) {
                let top = topLevel(of: nested, in: workflow)
                throw Problem(
                    "--only \(id): step '\(id)' is inside group '\(top)'; --only runs a top-level step with all it "
                        + "contains (--only \(top))")
            }
            throw Problem(
                "--only \(id): \(workflow.file) has no top-level step '\(id)'; its top-level steps are "
                    + workflow.steps.map(\.id).joined(separator: ", "))
        }
        var given: [String: StepRecord<StepResult>] = [:]
        for file in outputsFrom {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw Problem("--outputs-from \(file): cannot read it (\(error.localizedDescription))")
            }
            var document: Value
            do {
                document = try Value(jsonText: text)
            } catch {
                throw Problem("--outputs-from \(file): not JSON (\(error))")
            }
            do {
                // Records an exported workflow passes as artifacts: the file points at them.
                document = try StepRecordsFile.resolvingArtifacts(document, file: file)
            } catch {
                throw Problem("--outputs-from \(error)")
            }
            do {
                // A file is one step's records, or Argo's list of a for-each step's item pods' records.
                // A step's own file comes before the failed mark another file carries for it (see
                // `upstreamFailures`): a record with outputs or an error wins over a bare status.
                given.merge(try StepRecordsFile.decodeAggregate(document, file: file, workflow: workflow)) {
                    first, second in detail(second) > detail(first) ? second : first
                }
            } catch {
                throw Problem("--outputs-from \(error)")
            }
        }
        let own = Set(descendants(of: step).map(\.id))
        if (item != nil || itemsTo != nil) && step.forEach == nil {
            throw Problem("--only \(id): --item and --items-to are for a for-each step; '\(id)' has no for-each")
        }
        let chosen = try item.map { text throws(Problem) in try GivenItem(text, step: step, workflow: workflow) }
        // A given item runs whatever its needs were: the items' pod decided the step from them.
        for need in step.needs where given[need] == nil && chosen?.decidedElsewhere != true {
            throw Problem(
                "--only \(id): step '\(id)' needs '\(need)', and no --outputs-from file records it; run "
                    + "`flow run \(workflow.file) --only \(need) --outputs-to \(need).json` first and pass "
                    + "--outputs-from \(need).json")
        }
        // An item's pod after the items' pod decided the step as a whole (skipped it, or its
        // items could not be computed): the step keeps that record and nothing runs.
        let decided = chosen?.record ?? (item != nil ? given[id] : nil)
        for ownId in own { given[ownId] = nil }
        var prior = given
        for other in workflow.allSteps where !own.contains(other.id) && prior[other.id] == nil {
            prior[other.id] = StepRecord(id: other.id, state: .skipped)
        }
        if let decided { prior[id] = decided }
        var only = OnlyStep(id: id, own: own, prior: prior, given: given, outputsTo: outputsTo, step: step)
        if let chosen {
            only.selection = chosen.selection(step: id)
        } else if itemsTo != nil {
            only.selection = .items(step: id)
            only.itemsTo = itemsTo
        }
        return only
    }

    /// A problem with `--only` or its files (exit 2).
    package struct Problem: Error {
        package let message: String
        init(_ message: String) { self.message = message }
    }

    /// How much a record read from a file tells: a failed mark (a bare status, see
    /// `upstreamFailures`), read as an error of its own (`step 'ID' failed`), tells least, so a
    /// step's own record given beside it wins whichever file comes first: its outputs, a failed
    /// `for-each`'s partial outputs and items, its own error.
    static func detail(_ record: StepRecord<StepResult>) -> Int {
        var detail = 0
        if record.output != nil || record.error is ForEachFailure { detail += 2 }
        if let error = record.error as? StepError, error.message != "step '\(record.id)' \(record.state.rawValue)" {
            detail += 1
        }
        return detail
    }

    static func descendants(of step: Step) -> [Step] {
        [step] + step.children.flatMap(descendants)
    }

    private static func topLevel(of step: Step, in workflow: Workflow) -> String {
        var current = step
        while let parent = current.parent, let up = workflow.allSteps.first(where: { $0.id == parent }) {
            current = up
        }
        return current.id
    }

    /// The records of the step and what it contains.
    func ownRecords(_ records: [String: StepRecord<StepResult>]) -> [String: StepRecord<StepResult>] {
        records.filter { own.contains($0.key) }
    }

    /// The verdict of the step alone: succeeded when it succeeded, was skipped, or failed under
    /// `continue-on-error`; failed when it failed; cancelled when interrupted.
    func verdict(_ records: [String: StepRecord<StepResult>], interrupted: Bool) -> RunVerdict {
        if interrupted { return .cancelled }
        guard let record = records[id] else { return .failed }
        // The items' pod succeeds whatever it decided: the items' pods say what happened.
        if case .items = selection { return .succeeded }
        switch record.state {
        case .succeeded, .skipped: return .succeeded
        case .failed where record.failureIgnored: return .succeeded
        default: return .failed
        }
    }

    /// Writes the given records and the step's own to `--outputs-to` (atomically); false after
    /// saying why when it cannot.
    func write(
        _ records: [String: StepRecord<StepResult>], masker: SecretMasker, say: (String) -> Void
    ) -> Bool {
        var own = ownRecords(records)
        var written = true
        if case .items = selection, let itemsTo {
            // The items, each an item's pod, or the one pod (-1) that records the step decided as a
            // whole (see `GivenItem.entries`). The step is recorded by those pods only, never here:
            // a dependent given this record and the pods' would read this one (the first file given
            // wins), and for a step with no items it lacks what the pods' aggregate has (each output
            // an empty list).
            let entries = GivenItem.entries(own[id], step: step, masker: masker)
            own[id] = nil
            written = Self.write(entries.jsonText + "\n", to: itemsTo, option: "--items-to", say: say)
        }
        if let status {
            let text = statusDocument(records, masker: masker).jsonText + "\n"
            written = Self.write(text, to: status.path, option: "--status-to", say: say) && written
        }
        guard let outputsTo else { return written }
        let document: Value
        if let index = selection?.itemIndex, let record = records[id] {
            document = StepRecordsFile.encodeItem(
                record, step: step, upstream: index <= 0 ? upstreamFailures : [:], masker: masker)
        } else {
            document = StepRecordsFile.encode(upstreamFailures.merging(own) { _, own in own }, masker: masker)
        }
        return Self.write(document.jsonText + "\n", to: outputsTo, option: "--outputs-to", say: say) && written
    }

    /// What the file of this step carries of the steps upstream: only which failed (a bare
    /// `failed` status, no outputs), so that `failure()` further down holds as in the whole run
    /// (a step skipped because of a failure passes it on); a step's outputs reach a dependent
    /// only from that step's own file, which the exported workflow passes to the tasks that read
    /// them (see Grammar.md), so a file stays the size of its own step's records.
    var upstreamFailures: [String: StepRecord<StepResult>] {
        var failures: [String: StepRecord<StepResult>] = [:]
        for (id, record) in given where record.state == .failed && !record.failureIgnored {
            failures[id] = StepRecord(id: id, state: .failed)
        }
        return failures
    }

    /// Writes `text` to `path`, making its folder first: an Argo pod has no folder for a path of its
    /// own (Argo creates none for an output parameter's path; see Grammar.md).
    private static func write(_ text: String, to path: String, option: String, say: (String) -> Void) -> Bool {
        do {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return true
        } catch {
            say("flow run: cannot write \(option) \(path): \(error.localizedDescription)\n")
            return false
        }
    }
}

/// `flow run --service NAME=URL`: a service of the workflow that already runs at URL (an Argo
/// service task); flow reads `services.NAME.url` and `.port` from it and does not start it.
package enum ExternalServices {
    /// The endpoints by name; a message for a malformed value or a name the workflow does not declare.
    package static func parse(_ arguments: [String], workflow: Workflow) throws(OnlyStep.Problem) -> [String:
        ServiceEndpoint]
    {
        var endpoints: [String: ServiceEndpoint] = [:]
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="),
                let url = URLComponents(string: String(argument[argument.index(after: equals)...])),
                let scheme = url.scheme, scheme == "http" || scheme == "https", url.host != nil
            else {
                throw OnlyStep.Problem(
                    "--service \(argument): expected NAME=URL, e.g. --service sandbox=http://10.0.0.7:8080")
            }
            let name = String(argument[..<equals])
            guard workflow.services.contains(where: { $0.name == name }) else {
                throw OnlyStep.Problem(
                    "--service \(argument): \(workflow.file) declares no service '\(name)'"
                        + (workflow.services.isEmpty
                            ? "" : "; its services are " + workflow.services.map(\.name).joined(separator: ", ")))
            }
            var text = String(argument[argument.index(after: equals)...])
            while text.hasSuffix("/") { text.removeLast() }
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            endpoints[name] = ServiceEndpoint(name: name, port: port, url: text)
        }
        return endpoints
    }
}
