/// What a step does: exactly one kind.
public indirect enum StepKind: Sendable, Hashable {
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

    /// The key that declares this kind (`http`, `upload`, `run`, `sleep`, `parallel`).
    public var keyword: String {
        switch self {
        case .http: return "http"
        case .upload: return "upload"
        case .run: return "run"
        case .sleep: return "sleep"
        case .group: return "parallel"
        }
    }
}

/// A step's declared output: `outputs.<name>`, evaluated after the step succeeded.
public struct Output: Sendable, Hashable {
    /// The name (`steps.<id>.outputs.<name>`).
    public let name: String
    /// Where the name is.
    public let location: SourceLocation
    /// The value, usually one `${{ }}` reading `result`.
    public let value: ScalarText

    /// Creates an output.
    public init(name: String, location: SourceLocation, value: ScalarText) {
        self.name = name
        self.location = location
        self.value = value
    }
}

/// One step of a workflow, top level or inside a group.
public struct Step: Sendable, Hashable {
    /// The id, unique in the whole file.
    public let id: String
    /// Where the id is written.
    public let location: SourceLocation
    /// Text for humans.
    public let name: String?
    /// Text for humans.
    public let description: String?
    /// The ids this step waits for, in the order written.
    public let needs: [String]
    /// Where each of `needs` is written (same order).
    public let needLocations: [SourceLocation]
    /// The enclosing group's id, if any.
    public let parent: String?
    /// What the step does.
    public let kind: StepKind
    /// `if:`; nil means `success()`.
    public let condition: ScalarText?
    /// The step's own timeout, retries included.
    public let timeout: Duration?
    /// The step's own retry policy.
    public let retry: Retry?
    /// Whether a failure counts as success for dependents.
    public let continueOnError: Bool
    /// Declared outputs, in file order.
    public let outputs: [Output]

    /// Creates a step.
    public init(
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
        outputs: [Output] = []
    ) {
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
        self.retry = retry
        self.continueOnError = continueOnError
        self.outputs = outputs
    }

    /// The group's children, or none for other kinds.
    public var children: [Step] {
        if case .group(let group) = kind { return group.children }
        return []
    }
}

extension Step {
    /// The `if:` condition as one expression, written bare (`if: always()`) or as `${{ }}`;
    /// nil when there is no condition (meaning `success()`) or it does not compile.
    public var conditionExpression: Expression? {
        guard let condition else { return nil }
        guard let template = condition.template else { return nil }
        if template.isSingleExpression { return template.expressions.first?.expression }
        if template.isLiteral { return try? Expression.parse(condition.text) }
        return nil
    }
}
