import FlowEngine
import FlowJournal

/// The runs a journal remembers: what `flow runs` lists and `flow runs show` shows. A run keeps a
/// journal when it is started with `FlowRunOptions.journal = .folder(path)` (`flow run` always
/// keeps one, in `.flow` beside the workflow file unless told otherwise); each workflow file
/// keeps its 50 newest runs, plus the newest unfinished one.
///
/// Reading never creates or changes anything, and may happen while runs are writing: a run
/// recorded as running whose process is gone (killed, machine restarted) reads as `interrupted`.
///
/// ```swift
/// let folder = FlowRuns.folder(workflowFile: "deploy.yaml")        // …/.flow beside the file
/// for run in try FlowRuns.list(folder: folder, workflowFile: "deploy.yaml") {
///     print(run.id, run.state, run.startedAt, run.stepCounts[.failed] ?? 0)
/// }
/// if let run = try FlowRuns.run(id: "20261123-130455-a1b2", folder: folder) {
///     for step in run.steps where step.state == .failed { print(step.name, step.error ?? "") }
/// }
/// ```
public enum FlowRuns {
    /// The journal's folder as `flow run` and `flow runs` choose it: `explicit` (`--state-dir`)
    /// when given and not empty, else the `FLOW_STATE_DIR` environment variable when set and not
    /// empty, else `.flow` beside `workflowFile`, else (no file) `.flow` in the current directory.
    /// The result is absolute.
    ///
    /// ```swift
    /// FlowRuns.folder(workflowFile: "/srv/deploy.yaml")                    // "/srv/.flow"
    /// FlowRuns.folder(explicit: "state", workflowFile: nil)                // "<current folder>/state"
    /// ```
    public static func folder(explicit: String? = nil, workflowFile: String?) -> String {
        JournalLocation.stateDirectory(explicit: explicit, workflowFile: workflowFile)
    }

    /// The runs recorded in `folder`'s journal, newest first: every run, or only those of
    /// `workflowFile` (any path naming the file: made absolute, symbolic links resolved). Empty
    /// when the folder has no journal yet.
    ///
    /// Throws when the journal cannot be read (damaged, written by a newer flow, a state this
    /// flow does not know); the error's `message` names the file and what to do.
    ///
    /// ```swift
    /// let latest = try FlowRuns.list(folder: ".flow", workflowFile: "deploy.yaml").first
    /// ```
    public static func list(folder: String, workflowFile: String? = nil) throws(FlowJournalError) -> [FlowRunRecord] {
        do {
            guard let journal = try Journal.openForReading(stateDirectory: folder) else { return [] }
            defer { journal.close() }
            return try journal.runs(file: workflowFile.map(JournalLocation.canonicalFile)).map(FlowRunRecord.init)
        } catch {
            throw FlowJournalError(error)
        }
    }

    /// Everything `folder`'s journal keeps about the run `id`: its inputs, each step's and item's
    /// state, attempts, times, error and outputs, and its transfers. Nil when the journal holds no
    /// such run (never recorded, pruned) or the folder has none.
    ///
    /// ```swift
    /// guard let run = try FlowRuns.run(id: id, folder: ".flow") else { return }
    /// let token = run.steps.first { $0.step == "login" }?.outputs.value?["token"]
    /// ```
    public static func run(id: String, folder: String) throws(FlowJournalError) -> FlowRunDetail? {
        do {
            guard let journal = try Journal.openForReading(stateDirectory: folder) else { return nil }
            defer { journal.close() }
            return try journal.run(id: id).map(FlowRunDetail.init)
        } catch {
            throw FlowJournalError(error)
        }
    }
}

/// Why a journal cannot be read: damaged, written by a newer flow, or holding a state this flow
/// does not know. `message` (also `description`) names the journal's file and what to do.
///
/// ```swift
/// do { _ = try FlowRuns.list(folder: ".flow") } catch { print("cannot list runs: \(error.message)") }
/// ```
public struct FlowJournalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One line naming the file or folder and what to do about it.
    public let message: String

    /// The message.
    public var description: String { message }

    init(_ error: JournalError) {
        message = error.description
    }
}
