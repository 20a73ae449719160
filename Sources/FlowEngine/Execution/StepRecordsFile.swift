import FlowDSL

/// The records of finished steps as a JSON document: what `flow run --only ID --outputs-to FILE`
/// writes and `--outputs-from FILE` reads, so that one step can run in another process (an Argo
/// task) with its needs' outputs and statuses as the whole run would have them.
///
/// ```json
/// {"flow-outputs": 1, "steps": {"list": {"status": "succeeded", "outputs": {"names": ["a"]}}}}
/// ```
/// Each step has `status`, `outputs`, and where they apply `failure-ignored`, `winner`, `items`
/// (`{item, status, outputs, error, attempts}` of a `for-each` step) and `error`. Values are
/// masked: a secret never reaches the file.
package enum StepRecordsFile {
    /// The format's version, under `flow-outputs`.
    package static let version = 1

    /// The document for `records` (only those given), every text masked with `masker`.
    package static func encode(_ records: [String: StepRecord<StepResult>], masker: SecretMasker) -> Value {
        var steps: [String: Value] = [:]
        for (id, record) in records where record.state.isFinal {
            steps[id] = encode(record, masker: masker)
        }
        return .object(["flow-outputs": .number(Double(version)), "steps": .object(steps)])
    }

    static func encode(_ record: StepRecord<StepResult>, masker: SecretMasker) -> Value {
        var fields: [String: Value] = ["status": .string(record.state.rawValue)]
        let result = record.produced
        fields["outputs"] = masked(.object(result?.outputs ?? [:]), masker)
        if record.failureIgnored { fields["failure-ignored"] = .bool(true) }
        if let winner = record.winner { fields["winner"] = .string(winner) }
        if let items = result?.items {
            fields["items"] = .array(
                items.map { item in
                    var entry: [String: Value] = [
                        "item": masked(item.item, masker), "status": .string(item.state.rawValue),
                        "outputs": masked(.object(item.outputs), masker), "attempts": .number(Double(item.attempts)),
                    ]
                    if let error = item.error { entry["error"] = .string(masker(error)) }
                    return .object(entry)
                })
        }
        if let error = record.error { fields["error"] = .string(masker(String(describing: error))) }
        return .object(fields)
    }

    package static func masked(_ value: Value, _ masker: SecretMasker) -> Value {
        switch value {
        case .string(let text): .string(masker(text))
        case .array(let values): .array(values.map { masked($0, masker) })
        case .object(let members): .object(members.mapValues { masked($0, masker) })
        default: value
        }
    }

    /// A document that is not what `encode` writes.
    package struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, naming the step when it is one step's entry.
        package let description: String
    }

    /// The records of `document` (read from a file named `file`, for messages), for the steps of
    /// `workflow`; `location(id)` places a recorded failure.
    package static func decode(_ document: Value, file: String, workflow: Workflow) throws(FormatError)
        -> [String: StepRecord<StepResult>]
    {
        guard case .object(let root) = document, case .number(let number, _)? = root["flow-outputs"] else {
            throw FormatError(description: "\(file) is not a file `flow run --outputs-to` wrote (no \"flow-outputs\")")
        }
        guard Int(number) == version else {
            throw FormatError(description: "\(file) has format \(Int(number)); this flow reads format \(version)")
        }
        guard case .object(let steps)? = root["steps"] else {
            throw FormatError(description: "\(file) has no \"steps\" object")
        }
        let locations = Dictionary(workflow.allSteps.map { ($0.id, $0.location) }, uniquingKeysWith: { a, _ in a })
        var records: [String: StepRecord<StepResult>] = [:]
        for (id, entry) in steps {
            guard let location = locations[id] else {
                throw FormatError(description: "\(file) records step '\(id)', which \(workflow.file) does not have")
            }
            records[id] = try record(id, entry, at: location, file: file)
        }
        return records
    }

    private static func record(_ id: String, _ entry: Value, at location: SourceLocation, file: String)
        throws(FormatError) -> StepRecord<StepResult>
    {
        guard case .object(let fields) = entry, case .string(let status)? = fields["status"],
            let state = StepState(rawValue: status), state.isFinal
        else {
            throw FormatError(description: "\(file): step '\(id)' has no final \"status\"")
        }
        var outputs: [String: Value] = [:]
        if case .object(let values)? = fields["outputs"] { outputs = values }
        var items: [ItemResult]?
        if case .array(let entries)? = fields["items"] {
            items = entries.map { entry in
                guard case .object(let item) = entry else {
                    return ItemResult(item: .null, state: .skipped, outputs: [:], error: nil, attempts: 0)
                }
                var itemOutputs: [String: Value] = [:]
                if case .object(let values)? = item["outputs"] { itemOutputs = values }
                var attempts = 0
                if case .number(let number, _)? = item["attempts"] { attempts = Int(number) }
                var error: String?
                if case .string(let text)? = item["error"] { error = text }
                var itemState = StepState.skipped
                if case .string(let text)? = item["status"], let parsed = StepState(rawValue: text) {
                    itemState = parsed
                }
                return ItemResult(
                    item: item["item"] ?? .null, state: itemState, outputs: itemOutputs, error: error,
                    attempts: attempts)
            }
        }
        let result = StepResult(result: .object([:]), outputs: outputs, attempts: 1, items: items)
        var message = "step '\(id)' \(state.rawValue)"
        if case .string(let text)? = fields["error"] { message = text }
        var record = StepRecord<StepResult>(id: id, state: state)
        if case .string(let winner)? = fields["winner"] { record.winner = winner }
        if case .bool(true)? = fields["failure-ignored"] { record.failureIgnored = true }
        switch state {
        case .succeeded: record.output = result
        case .failed where items != nil:
            record.error = ForEachFailure(message: message, location: location, partial: result)
        case .failed, .cancelled: record.error = StepError(message, at: location)
        default: break
        }
        return record
    }
}

extension StepRecordsFile {
    /// What one item's pod of a fanned-out `for-each` step writes (`flow run --only ID --item N
    /// --outputs-to`): the step's state in that pod, the item, its index and the count of items,
    /// under `item`; `steps` holds the records given to the pod when `upstream` is set (the pod
    /// of the first item, so the aggregate carries them once).
    package static func encodeItem(
        _ record: StepRecord<StepResult>, step: Step, upstream: [String: StepRecord<StepResult>], masker: SecretMasker
    ) -> Value {
        let result = record.produced
        var fields: [String: Value] = [
            "step": .string(step.id), "status": .string(record.state.rawValue),
            "output-names": .array(step.outputs.map { .string($0.name) }),
        ]
        if case .object(let members)? = result?.result {
            fields["index"] = members["index"] ?? .number(-1)
            fields["count"] = members["count"] ?? .number(0)
        } else {
            fields["index"] = .number(-1)
            fields["count"] = .number(0)
        }
        if let item = result?.items?.first {
            fields["item"] = masked(item.item, masker)
            fields["item-status"] = .string(item.state.rawValue)
            fields["outputs"] = masked(.object(item.outputs), masker)
            fields["attempts"] = .number(Double(item.attempts))
            if let error = item.error { fields["error"] = .string(masker(error)) }
        }
        if record.failureIgnored { fields["failure-ignored"] = .bool(true) }
        if let error = record.error, fields["error"] == nil {
            fields["error"] = .string(masker(String(describing: error)))
        }
        var document = encode(upstream, masker: masker)
        if case .object(var root) = document {
            root["item"] = .object(fields)
            document = .object(root)
        }
        return document
    }

    /// The records in Argo's aggregate of a fanned-out step's output parameter: a JSON list of
    /// what each item's pod wrote (each as text or as the object), merged into one record per
    /// step as the whole run would have it (outputs as lists in item order, `items`, failed when
    /// an item failed), with the records the pods were given.
    ///
    /// `{"flow-aggregate": ID, "pods": LIST}` is what an exported workflow gives a dependent of
    /// fanned-out step ID: Argo's list of the item pods' output maps (`{"flow": TEXT}` each),
    /// which holds succeeded pods only. An item missing from it reads as failed, and so does
    /// the step when the list holds none of its items.
    package static func decodeAggregate(_ document: Value, file: String, workflow: Workflow) throws(FormatError)
        -> [String: StepRecord<StepResult>]
    {
        var document = document
        var fanned: String?
        if case .object(let root) = document, case .string(let id)? = root["flow-aggregate"] {
            guard case .array? = root["pods"] else {
                throw FormatError(description: "\(file): \"flow-aggregate\" without a \"pods\" list")
            }
            fanned = id
            document = root["pods"] ?? .array([])
        }
        guard case .array(let elements) = document else { return try decode(document, file: file, workflow: workflow) }
        var records: [String: StepRecord<StepResult>] = [:]
        var entries: [String: [[String: Value]]] = [:]
        for element in elements {
            var item = element
            // Argo's map of a pod's output parameters: the record is under `flow`.
            if case .object(let outputs) = element, outputs["flow-outputs"] == nil, let flow = outputs["flow"] {
                item = flow
            }
            if case .string(let text) = item {
                do {
                    item = try Value(jsonText: text)
                } catch {
                    throw FormatError(description: "\(file): an entry of the list is not JSON")
                }
            }
            records.merge(try decode(item, file: file, workflow: workflow)) { first, _ in first }
            if case .object(let root) = item, case .object(let fields)? = root["item"],
                case .string(let id)? = fields["step"]
            {
                entries[id, default: []].append(fields)
            }
        }
        let steps = Dictionary(workflow.allSteps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let fanned, entries[fanned] == nil, records[fanned]?.state != .skipped {
            guard let step = steps[fanned] else {
                throw FormatError(description: "\(file) records step '\(fanned)', which \(workflow.file) does not have")
            }
            var record = StepRecord<StepResult>(id: fanned, state: .failed)
            record.error = StepError(
                "step '\(fanned)': none of its items' pods succeeded on Argo (Argo keeps the outputs of succeeded pods "
                    + "only)", at: step.location)
            record.failureIgnored = step.continueOnError
            records[fanned] = record
        }
        for (id, fields) in entries {
            guard let step = steps[id] else {
                throw FormatError(description: "\(file) records step '\(id)', which \(workflow.file) does not have")
            }
            records[id] = aggregate(fields, step: step)
        }
        return records
    }

    private static func number(_ value: Value?) -> Int {
        if case .number(let number, _)? = value { return Int(number) }
        return 0
    }

    private static func aggregate(_ entries: [[String: Value]], step: Step) -> StepRecord<StepResult> {
        var record = StepRecord<StepResult>(id: step.id, state: .succeeded)
        // The step decided as a whole (skipped, or failed before its items): every pod says so.
        for fields in entries where number(fields["index"]) < 0 {
            guard case .string(let status)? = fields["status"], let state = StepState(rawValue: status),
                state != .succeeded
            else { continue }
            record.state = state
            if state == .failed {
                var message = "step '\(step.id)' failed"
                if case .string(let text)? = fields["error"] { message = text }
                record.error = StepError(message, at: step.location)
                record.failureIgnored = step.continueOnError
            }
            return record
        }
        let count = entries.map { number($0["count"]) }.max() ?? 0
        var items = [ItemResult?](repeating: nil, count: count)
        var names = Set(step.outputs.map(\.name))
        for fields in entries {
            let index = number(fields["index"])
            guard index >= 0, index < count else { continue }
            var outputs: [String: Value] = [:]
            if case .object(let values)? = fields["outputs"] { outputs = values }
            names.formUnion(outputs.keys)
            var state = StepState.failed
            if case .string(let text)? = fields["item-status"], let parsed = StepState(rawValue: text) {
                state = parsed
            }
            var error: String?
            if case .string(let text)? = fields["error"] { error = text }
            items[index] = ItemResult(
                item: fields["item"] ?? .null, state: state, outputs: outputs, error: error,
                attempts: number(fields["attempts"]))
        }
        // An item with no entry: its pod did not succeed (Argo aggregates succeeded pods only,
        // `operator.go` `processAggregateNodeOutputs`), so it failed or its pod was lost.
        let final = items.map {
            $0
                ?? ItemResult(
                    item: .null, state: .failed, outputs: [:],
                    error: "its pod did not succeed on Argo, which keeps the outputs of succeeded pods only",
                    attempts: 1)
        }
        var lists: [String: Value] = [:]
        for name in names { lists[name] = .array(final.map { $0.outputs[name] ?? .null }) }
        let result = StepResult(
            result: .object([:]), outputs: lists, attempts: final.reduce(0) { $0 + $1.attempts }, items: final)
        if let failed = final.firstIndex(where: { $0.state != .succeeded }) {
            record.state = .failed
            record.failureIgnored = step.continueOnError
            let message =
                "step '\(step.id)' item \(failed) \(final[failed].state.rawValue): \(final[failed].error ?? "")"
            record.error = ForEachFailure(message: message, location: step.location, partial: result)
        } else {
            record.output = result
        }
        return record
    }
}
