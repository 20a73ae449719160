/// A checked workflow: its settings, its steps, and the order a run would start them in.
package struct Workflow: Sendable {
    /// The file it was read from, as given.
    package let file: String
    /// The language version (`1`).
    package let version: Int
    /// Text for humans.
    package let name: String?
    /// Text for humans.
    package let description: String?
    /// Declared inputs, in file order.
    package let inputs: [Input]
    /// Environment variables exported to `run` steps, in file order.
    package let env: [NamedValue]
    /// Settings steps inherit.
    package let defaults: Defaults
    /// The most steps in flight at once (default 16).
    package let concurrency: Int
    /// The services started before the first step, in file order.
    package let services: [Service]
    /// The top-level steps, in file order.
    package let steps: [Step]
    /// Every step, nested ones included, depth first in file order.
    package let allSteps: [Step]
    /// Step ids in an order where every step comes after its needs and its group.
    package let order: [String]
    /// Steps that would start together: each wave starts when the steps it waits for are done.
    package let waves: [[String]]
    /// Top-level `outputs`: what a caller reads as `steps.<uses-step>.outputs.<name>`, evaluated
    /// after every step of this file finished.
    package let outputs: [NamedValue]
    /// The workflows its `uses` steps call, by `UsesStep.resolvedPath`, each checked (and carrying
    /// the ones it calls): graph, dry run and engine never read a file again.
    package internal(set) var called: [String: Workflow] = [:]
    /// A fingerprint of the file's `env` and `defaults` as written (see `NodeFingerprint`), which
    /// every step inherits; nil for a workflow not read from a file.
    package internal(set) var settingsFingerprint: UInt64?
    /// `optional-secrets`: the secrets this file reads that may be unset (or empty); they then
    /// read as `null` instead of stopping the run before it starts.
    package internal(set) var optionalSecrets: Set<String> = []
    /// Fields written as `${{ }}` (`retry: ${{ inputs.retries }}`), computed when the run starts;
    /// until `resolvingSettings(in:)` those fields hold their defaults.
    package let settingExpressions: [SettingExpression]

    /// Steps by position in `allSteps`: ids and needs hashed once, shared by the checks.
    let table: StepTable
    /// The wave of each step, by position in `allSteps`.
    let wave: [Int]

    /// The default of `concurrency`.
    package static let defaultConcurrency = 16

    /// Builds a workflow from parsed, checked parts; `steps` must form a DAG with unique ids. Only
    /// the checker builds one (`Workflow.load` and friends), so every `Workflow` is a checked one.
    init(
        file: String,
        version: Int,
        name: String?,
        description: String?,
        inputs: [Input],
        env: [NamedValue],
        defaults: Defaults,
        concurrency: Int,
        steps: [Step],
        services: [Service] = [],
        settingExpressions: [SettingExpression] = [],
        outputs: [NamedValue] = []
    ) {
        self.outputs = outputs
        self.file = file
        self.version = version
        self.name = name
        self.description = description
        self.inputs = inputs
        self.env = env
        self.defaults = defaults
        self.concurrency = concurrency
        self.steps = steps
        self.services = services
        self.settingExpressions = settingExpressions
        var all: [Step] = []
        func collect(_ steps: [Step]) {
            for step in steps {
                all.append(step)
                collect(step.children)
            }
        }
        collect(steps)
        self.allSteps = all
        let table = StepTable(steps: all)
        self.table = table
        let schedule = StepSchedule(steps: all, table: table)
        self.order = schedule.order
        self.waves = schedule.waves
        self.wave = schedule.wave
    }

    /// The step with this id, nested ones included; `deploy/publish` is step `publish` of the
    /// file step `deploy` uses (ids never contain `/`), `deploy[1]/publish` the same step in the
    /// run of item 1, and `batch[2]/check` step `check` of the `for-each` group `batch`.
    package func step(_ id: String) -> Step? {
        if let position = table.index[id] { return allSteps[position] }
        guard let slash = id.firstIndex(of: "/") else { return nil }
        var head = id[..<slash]
        if head.hasSuffix("]"), let bracket = head.firstIndex(of: "[") { head = head[..<bracket] }
        let rest = String(id[id.index(after: slash)...])
        if let position = table.index[String(head)], allSteps[position].forEach != nil,
            case .group = allSteps[position].kind
        {
            return step(rest)
        }
        return calledWorkflow(of: String(head))?.step(rest)
    }

    /// The service declared with this name.
    package func service(_ name: String) -> Service? {
        services.first { $0.name == name }
    }

    /// The input declared with this name.
    package func input(_ name: String) -> Input? {
        inputs.first { $0.name == name }
    }
}
