import FlowDSL

/// The values expressions can read at one point of a run: the roots `inputs`, `env`, `secrets`,
/// `services`, `flow`, `steps` and, in a step's own `expect` and `outputs`, `result`.
struct ExpressionScope: EvaluationContext {
    let inputs: Value
    let env: Value
    let secrets: Value
    /// Only the steps the expression reads (found from its references), so evaluating stays cheap
    /// in a 10,000-step run.
    let steps: Value
    let result: Value?
    let facts: ConditionFacts?
    /// `services.<name>.port` and `.url`.
    var services: Value = .object([:])
    /// `flow.executable`.
    var flow: Value = .object([:])
    /// Names a step adds for one run of it (see `StepStart.locals`).
    var locals: [String: Value] = [:]
    /// The workflow file's folder, where `files('glob')` matches.
    var filesFolder: String?

    func value(ofRoot name: String) -> Value? {
        if let local = locals[name] { return local }
        switch name {
        case "inputs": return inputs
        case "env": return env
        case "secrets": return secrets
        case "steps": return steps
        case "result": return result
        case "services": return services
        case "flow": return flow
        default: return nil
        }
    }

    func problem(reading key: String, ofRoot name: String) -> String? {
        guard name == "result" else { return nil }
        return ResponseBodyFields.problem(reading: key, in: result)
    }

    /// Outside a step's `if` (no facts), the answers of a run where everything so far succeeded.
    func statusFunction(_ function: StatusFunction) -> Bool? {
        (facts ?? .everythingSucceeded).holds(function)
    }

    func idempotencyKey() -> String? {
        IdempotencyKey.key(locals: locals)
    }
}

/// The fixed roots of a run, and how to build a scope for one evaluation.
struct RunValues: Sendable {
    let inputs: Value
    var env: Value
    let secrets: Value
    /// `services.<name>.port` and `.url`, known before the run starts (see `RunOptions.services`).
    var services: Value = .object([:])
    /// `flow.executable`.
    var flow: Value = .object([:])
    /// The workflow file's folder, where `files('glob')` matches.
    var folder: String?
    /// Names every scope of the run has (an item of a `for-each` group: its item and `index`);
    /// a step's own locals shadow them.
    var locals: [String: Value] = [:]
    /// `RunOptions.forEachSelection`.
    var forEachSelection: ForEachSelection?
    /// The run's id and the prefix of its step ids, from which `idempotencyKey()` derives.
    var keySeed = ""
    /// The run's masker (its secrets'), which outputs marked `secret` join as they are known.
    var masker = SecretMasker.none

    /// The run's values before any step: inputs, secrets, services, `flow`, and the workflow's
    /// `env` evaluated over them — as values for expressions and as text for processes — with the
    /// problems found (each naming its place).
    static func prepare(_ workflow: Workflow, _ options: RunOptions) -> (
        values: RunValues, environment: [String: String], problems: [StepError]
    ) {
        // `env.NAME` reads the workflow's `env`, then the process environment (as GitHub Actions'
        // `env` context does), so a run and a dry run show the same values.
        let processEnv = options.environment.mapValues { Value.string($0) }
        let base = RunValues(
            inputs: WorkflowRun.inputValues(workflow, options), env: .object(processEnv),
            secrets: .object(options.secrets.values.mapValues { .string($0) }), services: options.servicesValue,
            flow: options.flowValue, masker: options.secrets.masker)
        var problems: [StepError] = []
        var environment: [String: String] = [:]
        var envValues = processEnv
        let workflowScope = base.scope(for: [], records: RunRecords([:]))
        for variable in workflow.env {
            do {
                let value = try variable.value.evaluate(in: workflowScope)
                envValues[variable.name] = value
                environment[variable.name] = value.interpolated
            } catch {
                problems.append(error)
            }
        }
        var values = base
        values.env = .object(envValues)
        values.folder = WorkflowPath.absolute(workflow.folder, in: options.workingDirectory)
        values.locals = options.itemLocals
        values.forEachSelection = options.forEachSelection
        // A run without a journal has no id to keep: its keys are stable across retries only.
        values.keySeed =
            (options.runID ?? String(UInt64.random(in: .min ... .max), radix: 16)) + "\n" + options.journalPrefix
        return (values, environment, problems)
    }

    /// A scope for evaluating `texts` (and compiled `expressions`), with the records of the steps
    /// they read.
    func scope(
        for texts: [ScalarText], expressions: [Expression] = [], records: RunRecords<StepResult>,
        result: Value? = nil, facts: ConditionFacts? = nil, locals: [String: Value] = [:]
    ) -> ExpressionScope {
        var read = expressions
        for text in texts {
            if let template = text.template { read += template.expressions.map(\.expression) }
        }
        var steps: [String: Value] = [:]
        for reference in read.flatMap(\.references) where reference.root == "steps" {
            guard case .key(let id)? = reference.path.first, steps[id] == nil, let record = records[id] else {
                continue
            }
            steps[id] = Self.value(of: record)
        }
        return ExpressionScope(
            inputs: inputs, env: env, secrets: secrets, steps: .object(steps), result: result, facts: facts,
            services: services, flow: flow,
            locals: self.locals.isEmpty ? locals : self.locals.merging(locals) { _, own in own },
            filesFolder: folder)
    }

    /// `steps.<id>` as expressions see it: `status`, `outputs`, and `winner` for an `any` group.
    static func value(of record: StepRecord<StepResult>) -> Value {
        var fields: [String: Value] = [
            "status": .string(record.state.rawValue),
            "outputs": .object(record.output?.outputs ?? [:]),
        ]
        if let winner = record.winner { fields["winner"] = .string(winner) }
        // A for-each step's items and lists, kept by its failure too (read under continue-on-error).
        let result = record.produced
        if let items = result?.items {
            fields["items"] = .array(items.map(\.value))
            if record.output == nil { fields["outputs"] = .object(result?.outputs ?? [:]) }
        }
        return .object(fields)
    }
}
