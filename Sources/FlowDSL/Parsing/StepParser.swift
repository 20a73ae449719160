/// Parses `steps:` mappings: each step's common keys and its one kind.
struct StepParser {
    static let commonKeys = [
        "needs", "if", "timeout", "retry", "continue-on-error", "outputs", "name", "description",
        "repeat", "allow-outside",
    ]
    static let kindKeys = ["http", "upload", "run", "sleep", "parallel", "uses", "call"]
    static let groupKeys = ["steps", "at-least", "fail-fast"]
    static let requestKeys = ["expect"]
    static let runKeys = ["env", "cwd"]
    static let usesKeys = ["with"]
    static let allStepKeys = commonKeys + kindKeys + groupKeys + requestKeys + runKeys + forEachKeys + usesKeys
    static let allStepKeySet = NodeReader.KeySet(allStepKeys)

    var reader: NodeReader

    mutating func parseSteps(_ node: Node, parent: String?) -> [Step] {
        guard let entries = reader.mapping(node, "'steps'") else { return [] }
        return entries.compactMap { parseStep($0, parent: parent) }
    }

    /// Keys that do not change what a step does, left out of its definition's fingerprint.
    private static let undefiningKeys = ["name", "description"]

    /// The fingerprint of a step's definition (see `Step.definitionFingerprint`).
    static func fingerprint(of node: Node) -> UInt64 {
        // Taken by the composer as it built the step, unless an alias is inside (see `StepCanon`).
        if case .mapping(let mapping) = node, let fingerprint = mapping.fingerprint { return fingerprint }
        var fingerprint = NodeFingerprint()
        fingerprint.addNode(node, skipping: undefiningKeys)
        return fingerprint.value
    }

    /// One entry of a `steps:` mapping as a step; nil when its value is not a mapping.
    mutating func parseStep(_ entry: NodeReader.Entry, parent: String?) -> Step? {
        let id = entry.key
        if !IdentifierSyntax.isValidName(id) {
            reader.error(
                "step id '\(Echo.text(id))' is not valid",
                at: entry.keyNode,
                hint: "ids match [A-Za-z_][A-Za-z0-9_-]*"
            )
        }
        // The step's name in messages, made only for a message (issue 19).
        var whatText: String?
        func what() -> String {
            if let whatText { return whatText }
            let text = "step '\(Echo.text(id))'"
            whatText = text
            return text
        }
        guard let fields = reader.mapping(entry.value, what()) else { return nil }
        reader.rejectUnknownKeys(fields, allowed: Self.allStepKeys, known: Self.allStepKeySet, in: what())
        let field = NodeReader.Fields(fields)

        // On a `for-each` step that is not a group, `parallel` is the items' policy, not a kind.
        let forEachPolicy = Self.forEachOwnsPolicy(field)
        // The kind keys; an array only when there is more than one (a message lists them).
        var kindPositions: (first: Int?, count: Int) = (nil, 0)
        for position in fields.indices {
            let key = fields[position].key
            guard Self.kindKeys.contains(key) && !(forEachPolicy && key == "parallel") else { continue }
            if kindPositions.first == nil { kindPositions.first = position }
            kindPositions.count += 1
        }
        let kindEntry = kindPositions.count == 1 ? kindPositions.first.map { fields[$0] } : nil
        var kind = StepKind.sleep(.zero)
        if kindPositions.count == 0 {
            let orphanGroup = field["steps"] != nil
            reader.error(
                "\(what()) has no kind",
                at: entry.keyNode,
                hint: orphanGroup
                    ? "a group needs 'parallel: all' or 'parallel: any' next to 'steps'"
                    : "give it one of 'http', 'upload', 'run', 'sleep', 'uses', 'call', or 'parallel' with 'steps'"
            )
        } else if let kindEntry {
            if let parsed = parseKind(kindEntry, fields: field, id: id) { kind = parsed }
        } else {
            let kinds = fields.filter { Self.kindKeys.contains($0.key) && !(forEachPolicy && $0.key == "parallel") }
            reader.error(
                "\(what()) has more than one kind: \(kinds.map { "'\($0.key)'" }.joined(separator: ", "))",
                at: kinds[1].keyNode,
                hint: "split it into one step per kind"
            )
        }
        rejectMisplacedKeys(fields, kind: kindEntry?.key, what: what(), forEach: forEachPolicy)
        let forEach = parseForEach(field, what: what())

        var needs: [String] = []
        var needLocations: [SourceLocation] = []
        if let needsField = field["needs"] {
            let items = reader.items(needsField.value)
            needs.reserveCapacity(items.count)
            needLocations.reserveCapacity(items.count)
            for item in items {
                guard let name = reader.string(item, "'needs'") else { continue }
                needs.append(name)
                needLocations.append(reader.location(item))
            }
        }
        var outputs: [NamedValue] = []
        if let outputsField = field["outputs"] {
            outputs = parseOutputs(outputsField.value)
        }
        return Step(
            id: id,
            location: reader.location(entry.keyNode),
            name: field["name"].flatMap { reader.string($0.value, "'name'") },
            description: field["description"].flatMap { reader.string($0.value, "'description'") },
            needs: needs,
            needLocations: needLocations,
            parent: parent,
            kind: kind,
            condition: field["if"].flatMap { reader.text($0.value, "'if'") },
            timeout: field["timeout"].flatMap {
                reader.deferred($0.value, "'timeout'", as: .duration, to: .timeout(step: id))
                    ? nil : reader.duration($0.value, "'timeout'")
            },
            retry: field["retry"].flatMap { parseRetry($0.value, at: $0.keyNode, step: id) },
            continueOnError: field["continue-on-error"].flatMap { reader.bool($0.value, "'continue-on-error'") }
                ?? false,
            allowOutside: field["allow-outside"].flatMap { reader.bool($0.value, "'allow-outside'") } ?? false,
            outputs: outputs,
            forEach: forEach,
            repeat: field["repeat"].flatMap { parseRepeat($0, kind: kindEntry != nil ? kind : nil, id: id) },
            definitionFingerprint: Self.fingerprint(of: entry.value)
        )
    }

    /// The keys `rejectMisplacedKeys` compares further.
    private static let misplaceableKeys = NodeReader.KeySet([
        "at-least", "fail-fast", "allow-outside", "steps", "expect", "env", "cwd", "with",
    ])

    /// Keys that belong to another kind (`steps` without `parallel`, `cwd` on an http step).
    private mutating func rejectMisplacedKeys(
        _ fields: NodeReader.Entries, kind: String?, what: @autoclosure () -> String, forEach: Bool
    ) {
        // On a for-each step that is not a group, `at-least` and `fail-fast` are the items' policy.
        guard kind != nil else { return }
        for position in fields.indices {
            // Only keys starting like one of those below need comparing; the key is read in place,
            // and the entry copied only for one of them (issue 32).
            switch fields[position].key.utf8.first {
            case UInt8(ascii: "s"), UInt8(ascii: "a"), UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "c"),
                UInt8(ascii: "w"):
                break
            default:
                continue
            }
            guard Self.misplaceableKeys.contains(fields[position].key) else { continue }
            let entry = fields[position]
            if forEach && (entry.key == "at-least" || entry.key == "fail-fast") { continue }
            if entry.key == "allow-outside", kind != "http", kind != "upload" {
                // Only these kinds read or write files at paths a server may supply.
                reader.error(
                    "'allow-outside' only applies to 'http' and 'upload' steps, not to \(what())", at: entry.keyNode)
                continue
            }
            let owner: String
            switch entry.key {
            case "steps", "at-least", "fail-fast": owner = "parallel"
            case "expect": owner = kind == "upload" ? "upload" : "http"
            case "env", "cwd": owner = "run"
            case "with": owner = kind == "call" ? "call" : "uses"
            default: continue
            }
            guard let kind, kind != owner else { continue }
            reader.error(
                "'\(Echo.text(entry.key))' only applies to '\(owner)' steps, not to \(what())", at: entry.keyNode)
        }
    }

    private mutating func parseKind(
        _ kindEntry: NodeReader.Entry,
        fields: NodeReader.Fields,
        id: String
    ) -> StepKind? {
        switch kindEntry.key {
        case "http":
            return parseHTTP(kindEntry, stepExpect: fields["expect"], id: id).map(StepKind.http)
        case "upload":
            return parseUpload(kindEntry, stepExpect: fields["expect"], id: id).map(StepKind.upload)
        case "run":
            return parseRun(kindEntry, fields: fields).map(StepKind.run)
        case "sleep":
            return reader.duration(kindEntry.value, "'sleep'").map(StepKind.sleep)
        case "uses":
            return parseUses(kindEntry, fields: fields, id: id).map(StepKind.uses)
        case "call":
            return parseCall(kindEntry, fields: fields).map(StepKind.call)
        default:
            return parseGroup(kindEntry, fields: fields, id: id).map(StepKind.group)
        }
    }

    private mutating func parseGroup(
        _ kindEntry: NodeReader.Entry,
        fields: NodeReader.Fields,
        id: String
    ) -> GroupStep? {
        let mode = reader.choice(kindEntry.value, "'parallel' mode", as: GroupStep.Mode.self)
        guard let stepsField = fields["steps"] else {
            reader.error(
                "group '\(Echo.text(id))' has no 'steps'",
                at: kindEntry.keyNode,
                hint: "list its children under 'steps:' next to 'parallel'"
            )
            return nil
        }
        let children = parseSteps(stepsField.value, parent: id)
        if children.isEmpty, case .mapping = stepsField.value {
            reader.error("group '\(Echo.text(id))' has no children", at: stepsField.keyNode)
        }
        var atLeast: Int?
        if let field = fields["at-least"] {
            atLeast = reader.integer(field.value, "'at-least'", atLeast: 1)
            if mode == .all {
                reader.error("'at-least' only applies to 'parallel: any' groups", at: field.keyNode)
            } else if let value = atLeast, case .mapping = stepsField.value, value > children.count {
                reader.error(
                    "'at-least: \(value)' asks for more successes than group '\(Echo.text(id))' has children (\(children.count))",
                    at: field.value
                )
            }
        }
        var failFast = true
        if let field = fields["fail-fast"] {
            failFast = reader.bool(field.value, "'fail-fast'") ?? true
            if mode == .any {
                reader.error("'fail-fast' only applies to 'parallel: all' groups", at: field.keyNode)
            }
        }
        guard let mode else { return nil }
        if mode == .any, children.count == 1, atLeast == nil {
            reader.warning(
                "'parallel: any' group '\(Echo.text(id))' has only one child",
                at: kindEntry.value,
                hint: "a race needs at least two children; use the child as a plain step"
            )
        }
        return GroupStep(
            mode: mode,
            atLeast: atLeast,
            failFast: failFast,
            children: children,
            location: reader.location(kindEntry.keyNode)
        )
    }
}
