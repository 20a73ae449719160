import FlowEngine
import Foundation

/// How to run a workflow: its inputs, secrets, concurrency, journal and reports.
///
/// ```swift
/// var options = FlowRunOptions()
/// options.inputs = ["file": "video.mp4"]
/// options.secrets = .values(["TOKEN": token])
/// options.reports = [.junit("build/flow.xml")]
/// ```
public struct FlowRunOptions: Sendable {
    /// Input values by name, as text, each read as `flow run --input NAME=VALUE` reads it (checked
    /// against the input's declared type).
    public var inputs: [String: String] = [:]
    /// Where `secrets.NAME` comes from (default: `FLOW_SECRET_NAME` environment variables).
    public var secrets: FlowSecrets = .environment
    /// The most steps in flight at once, overriding the workflow's `concurrency`.
    public var concurrency: Int?
    /// Whether the run keeps a journal (default: none).
    public var journal: Journal = .off
    /// Reports to write when the run ends, cancelled runs included.
    public var reports: [Report] = []
    /// How many output lines and nested steps' events wait for a slow consumer of `FlowRun.events`
    /// before they are dropped (see `FlowEvents`).
    public var eventBufferLimit = 1024
    /// The handlers of the workflow's `call` steps (see `FlowHostSteps`).
    public var hostSteps = FlowHostSteps()
    /// With a journal (`journal: .folder`): continue an earlier run of the workflow rather than
    /// start a new one (`flow run --resume`); nil starts a new run.
    public var resume: Resume?
    /// Services of the workflow already running elsewhere, as `NAME=URL` (`flow run --service`):
    /// the run does not start them and reads `services.NAME.url` as given.
    public var externalServices: [String] = []
    /// Runs one step of a run kept elsewhere (`flow run --only`, as an Argo task does) rather than
    /// the whole workflow; nil runs it all. Keep no journal with it.
    public var only: OneStep?
    /// The executable that ends the run's commands and services if this process dies (see
    /// `FlowReaper`); nil (the default) starts no reaper.
    public var reaperExecutable: String?

    /// The default options.
    public init() {}

    /// Whether and where the run is journaled (`flow run --resume` reads journals back).
    public enum Journal: Sendable, Hashable {
        /// No journal: nothing is written besides what the workflow writes.
        case off
        /// A journal in this folder (`flow run --state-dir`).
        case folder(String)
    }

    /// Which earlier run to continue, and which of its steps to run again.
    ///
    /// ```swift
    /// options.journal = .folder(FlowRuns.folder(workflowFile: workflow.file))
    /// options.resume = .init(runID: nil, reruns: ["upload"])      // the latest unfinished run
    /// ```
    public struct Resume: Sendable, Hashable {
        /// The run to continue (`--run-id`, as `FlowRuns.list` gives it); nil: the latest
        /// unfinished run of the workflow.
        public var runID: String?
        /// Steps whose requests are sent again though the journal holds their results (`--rerun`;
        /// `FlowWorkflow.unknownReruns` names those that are no step).
        public var reruns: Set<String>

        /// Continues run `runID` (nil: the latest unfinished one), running `reruns` again.
        public init(runID: String? = nil, reruns: Set<String> = []) {
            self.runID = runID
            self.reruns = reruns
        }
    }

    /// One step of a run kept elsewhere (`flow run --only STEP` and its files): the step's inputs
    /// come from the outputs other steps wrote, and its own are written for the steps after it.
    ///
    /// ```swift
    /// var step = FlowRunOptions.OneStep("resize")
    /// step.outputsFrom = ["outputs/fetch.json"]
    /// step.outputsTo = "outputs/resize.json"
    /// options.only = step
    /// ```
    public struct OneStep: Sendable, Hashable {
        /// The step's id.
        public var step: String
        /// Files of outputs other steps wrote (`--outputs-from`), read as `steps.ID.outputs`.
        public var outputsFrom: [String] = []
        /// Where the step's outputs are written (`--outputs-to`).
        public var outputsTo: String?
        /// For a `for-each` step: the one item to run (`--item`), an index or an entry of the list
        /// `itemsTo` wrote.
        public var item: String?
        /// For a `for-each` step: where its items' list is written, without running them
        /// (`--items-to`).
        public var itemsTo: String?
        /// Where a small record of the step is written besides `outputsTo` (`--status-to`): its
        /// status and only what steps `statusFor` read of it (`--status-for`), for the item pods
        /// of an exported `for-each`, which would otherwise each be given the whole record.
        public var statusTo: String?
        /// The steps whose reads `statusTo` keeps (top-level step ids).
        public var statusFor: [String] = []

        /// Runs step `step` alone.
        public init(_ step: String) {
            self.step = step
        }
    }

    /// A report to write: `json`, `junit`, `html` or `trace`, to a path.
    public struct Report: Sendable, Hashable {
        let format: String
        /// Where it is written (atomically).
        public let path: String

        /// flow's JSON report.
        public static func json(_ path: String) -> Report { Report(format: "json", path: path) }
        /// A JUnit XML report.
        public static func junit(_ path: String) -> Report { Report(format: "junit", path: path) }
        /// A self-contained HTML page with the run's timeline.
        public static func html(_ path: String) -> Report { Report(format: "html", path: path) }
        /// A Chrome trace (chrome://tracing, Perfetto).
        public static func trace(_ path: String) -> Report { Report(format: "trace", path: path) }
    }
}

/// Where a run's `secrets.NAME` values come from; later sources win.
///
/// ```swift
/// options.secrets = .environment.merging(.file(".env")).merging(.values(["TOKEN": token]))
/// ```
public struct FlowSecrets: Sendable {
    private enum Source: Sendable {
        case environment
        case file(String)
        case values([String: String])
    }

    private let sources: [Source]

    /// `FLOW_SECRET_NAME` variables of the process's environment.
    public static let environment = FlowSecrets(sources: [.environment])
    /// No secrets.
    public static let none = FlowSecrets(sources: [])
    /// The `NAME=value` lines of a `.env` file.
    public static func file(_ path: String) -> FlowSecrets { FlowSecrets(sources: [.file(path)]) }
    /// These values by name.
    public static func values(_ values: [String: String]) -> FlowSecrets { FlowSecrets(sources: [.values(values)]) }

    /// These sources, then `other`'s (which win).
    public func merging(_ other: FlowSecrets) -> FlowSecrets { FlowSecrets(sources: sources + other.sources) }

    /// The `.env` files among the sources, in order.
    var files: [String] {
        sources.compactMap { source in
            if case .file(let path) = source { return path }
            return nil
        }
    }

    /// The values, read now; an empty value counts as not set, as in `flow run`.
    func store() throws(FlowError) -> SecretStore {
        var values: [String: String] = [:]
        for source in sources {
            do {
                switch source {
                case .environment:
                    values.merge(
                        try SecretStore.load(environment: ProcessInfo.processInfo.environment, file: nil).values
                    ) { _, new in new }
                case .file(let path):
                    values.merge(try SecretStore.load(environment: [:], file: path).values) { _, new in new }
                case .values(let given):
                    values.merge(given.filter { !$0.value.isEmpty }) { _, new in new }
                }
            } catch {
                throw FlowError(message: "\(error)")
            }
        }
        return SecretStore(values: values)
    }
}
