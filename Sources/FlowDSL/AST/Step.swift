/// What a step does: exactly one kind.
package indirect enum StepKind: Sendable, Hashable {
    /// An HTTP request.
    case http(HTTPStep)
    /// A chunked file upload.
    case upload(UploadStep)
    /// A local command.
    case run(RunStep)
    /// A wait.
    case sleep(Duration)
    /// A parallel group.
    case group(GroupStep)
    /// Another workflow file run as one step.
    case uses(UsesStep)
    /// A handler the host program registers, run as one step.
    case call(CallStep)

    /// The key that declares this kind (`http`, `upload`, `run`, `sleep`, `parallel`, `uses`, `call`).
    package var keyword: String {
        switch self {
        case .http: return "http"
        case .upload: return "upload"
        case .run: return "run"
        case .sleep: return "sleep"
        case .group: return "parallel"
        case .uses: return "uses"
        case .call: return "call"
        }
    }
}

/// One step of a workflow, top level or inside a group.
///
/// A value type whose fields live in one shared immutable box: steps are copied often (into
/// lookups, checks and plans), and copying a box is one reference count instead of one per field.
package struct Step: Sendable, Hashable {
    /// The fields; immutable after init, so sharing the box between copies and threads is safe.
    private final class Storage: Sendable {
        let id: String
        let location: SourceLocation
        let name: String?
        let description: String?
        let needs: [String]
        let needLocations: [SourceLocation]
        let parent: String?
        let kind: StepKind
        let condition: ScalarText?
        let timeout: Duration?
        // The parts most steps lack are kept out of line: inline, the three took about 300
        // bytes of every step's box, nil or not (issue 32: 2.9 MiB at 10,000 steps).
        private let retryBox: RareBox<Retry>?
        let continueOnError: Bool
        let allowOutside: Bool
        let outputs: [NamedValue]
        private let forEachBox: RareBox<ForEach>?
        private let repeatBox: RareBox<Repeat>?
        var retry: Retry? { retryBox?.value }
        var forEach: ForEach? { forEachBox?.value }
        var `repeat`: Repeat? { repeatBox?.value }
        let definitionFingerprint: UInt64?

        init(
            id: String,
            location: SourceLocation,
            name: String?,
            description: String?,
            needs: [String],
            needLocations: [SourceLocation],
            parent: String?,
            kind: StepKind,
            condition: ScalarText?,
            timeout: Duration?,
            retry: Retry?,
            continueOnError: Bool,
            allowOutside: Bool,
            outputs: [NamedValue],
            forEach: ForEach?,
            repeat: Repeat?,
            definitionFingerprint: UInt64?
        ) {
            self.definitionFingerprint = definitionFingerprint
            self.id = id
            self.location = location
            self.name = name
            self.description = description
            self.needs = needs
            self.needLocations = needLocations
            self.parent = parent
            self.kind = kind
            self.condition = condition
            self.timeout = timeout
            self.retryBox = retry.map(RareBox.init)
            self.continueOnError = continueOnError
            self.allowOutside = allowOutside
            self.outputs = outputs
            self.forEachBox = forEach.map(RareBox.init)
            self.repeatBox = `repeat`.map(RareBox.init)
        }
    }

    private let storage: Storage

    /// The id, unique in the whole file.
    package var id: String { storage.id }
    /// Where the id is written.
    package var location: SourceLocation { storage.location }
    /// Text for humans.
    package var name: String? { storage.name }
    /// Text for humans.
    package var description: String? { storage.description }
    /// The ids this step waits for, in the order written.
    package var needs: [String] { storage.needs }
    /// Where each of `needs` is written (same order).
    package var needLocations: [SourceLocation] { storage.needLocations }
    /// The enclosing group's id, if any.
    package var parent: String? { storage.parent }
    /// What the step does.
    package var kind: StepKind { storage.kind }
    /// `if:`; nil means `success()`.
    package var condition: ScalarText? { storage.condition }
    /// The step's own timeout, retries included.
    package var timeout: Duration? { storage.timeout }
    /// The step's own retry policy.
    package var retry: Retry? { storage.retry }
    /// Whether a failure counts as success for dependents.
    package var continueOnError: Bool { storage.continueOnError }
    /// `allow-outside`: paths whose `${{ }}` values lead outside the folder their written text
    /// names (`save-to`, `body-file`, `upload.file`, multipart files) are allowed (see `PathProvenance`).
    package var allowOutside: Bool { storage.allowOutside }
    /// Declared outputs, in file order: each name (`steps.<id>.outputs.<name>`) and its value,
    /// usually one `${{ }}` reading `result`, evaluated after the step succeeded.
    package var outputs: [NamedValue] { storage.outputs }
    /// `for-each:`: the step runs once per item; nil for a step that runs once.
    package var forEach: ForEach? { storage.forEach }
    /// `repeat:`: run the step again until a condition says stop (see `Repeat`).
    package var `repeat`: Repeat? { storage.repeat }
    /// A fingerprint of the step's definition as written (its YAML value without `name` and
    /// `description`; comments, spacing and key order do not count), taken by the parser; nil for
    /// a step made in code. A resumed run compares them (see `StepDefinitionHash`).
    package var definitionFingerprint: UInt64? { storage.definitionFingerprint }

    /// Creates a step.
    package init(
        id: String,
        location: SourceLocation,
        name: String? = nil,
        description: String? = nil,
        needs: [String] = [],
        needLocations: [SourceLocation] = [],
        parent: String? = nil,
        kind: StepKind,
        condition: ScalarText? = nil,
        timeout: Duration? = nil,
        retry: Retry? = nil,
        continueOnError: Bool = false,
        allowOutside: Bool = false,
        outputs: [NamedValue] = [],
        forEach: ForEach? = nil,
        repeat: Repeat? = nil,
        definitionFingerprint: UInt64? = nil
    ) {
        storage = Storage(
            id: id,
            location: location,
            name: name,
            description: description,
            needs: needs,
            needLocations: needLocations,
            parent: parent,
            kind: kind,
            condition: condition,
            timeout: timeout,
            retry: retry,
            continueOnError: continueOnError,
            allowOutside: allowOutside,
            outputs: outputs,
            forEach: forEach,
            repeat: `repeat`,
            definitionFingerprint: definitionFingerprint
        )
    }

    /// Steps are equal when every field is.
    package static func == (lhs: Step, rhs: Step) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.id == rhs.id
            && lhs.location == rhs.location
            && lhs.name == rhs.name
            && lhs.description == rhs.description
            && lhs.needs == rhs.needs
            && lhs.needLocations == rhs.needLocations
            && lhs.parent == rhs.parent
            && lhs.kind == rhs.kind
            && lhs.condition == rhs.condition
            && lhs.timeout == rhs.timeout
            && lhs.retry == rhs.retry
            && lhs.continueOnError == rhs.continueOnError
            && lhs.allowOutside == rhs.allowOutside
            && lhs.outputs == rhs.outputs
            && lhs.forEach == rhs.forEach
            && lhs.repeat == rhs.repeat
    }

    /// Hashes the id and its location, which tell steps apart (consistent with `==`).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(location)
    }

    /// The group's children, or none for other kinds.
    package var children: [Step] {
        if case .group(let group) = kind { return group.children }
        return []
    }
}

extension Step {
    /// The `if:` condition as one expression, written bare (`if: always()`) or as `${{ }}`;
    /// nil when there is no condition (meaning `success()`) or it does not compile.
    package var conditionExpression: Expression? {
        condition?.conditionExpression
    }
}

extension ScalarText {
    /// The text read as a condition (`if:`, an `assert:` entry): one expression, bare or in
    /// `${{ }}`; nil when it is text around expressions or does not compile.
    package var conditionExpression: Expression? {
        guard let template else { return nil }
        if template.isSingleExpression { return template.expressions.first?.expression }
        if template.isLiteral { return try? Expression.parse(text) }
        return nil
    }
}

/// A value most steps lack, held out of line so that its absence costs one pointer.
private final class RareBox<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
