import FlowDSL
import FlowEngine

/// Steps the app implements in Swift: a workflow's `call: NAME` step runs the handler registered
/// under NAME with its `with:` values, and the handler's result is the step's outputs (see
/// "Host steps" in Grammar.md).
///
/// ```swift
/// var options = FlowRunOptions()
/// options.hostSteps.register("score-user") { call in
///     guard case .string(let name)? = call.inputs["name"] else { return [:] }
///     return ["score": .number(Double(name.count))]
/// }
/// ```
///
/// A thrown error fails the step (masked, with the step's place); cancelling the step or the run
/// cancels the handler's Task, and the run ends only once it has returned. A run whose workflow
/// calls a handler that is not registered does not start (`FlowError`, naming the `call`).
public struct FlowHostSteps: Sendable {
    /// A handler: the call in, the step's outputs out.
    public typealias Handler = @Sendable (FlowHostCall) async throws -> [String: FlowValue]

    private(set) var registry = HostStepRegistry()

    /// No handlers.
    public init() {}

    /// Registers `handler` under `name`, replacing one registered before under that name.
    public mutating func register(_ name: String, _ handler: @escaping Handler) {
        registry.register(name) { call in
            try await handler(FlowHostCall(call)).mapValues(\.engineValue)
        }
    }

    /// The registered names.
    public var names: Set<String> { registry.names }
}

/// One call of a host step's handler.
public struct FlowHostCall: Sendable {
    /// The handler's name, as the step's `call:` writes it.
    public let name: String
    /// The calling step's id (`deploy/score` in a called file).
    public let step: String
    /// The step's `with:` values (secrets in clear: the handler is the app's own code).
    public let inputs: [String: FlowValue]
    /// The attempt, from 1 (later ones are retries under the step's `retry`).
    public let attempt: Int
    /// The `for-each` item this call runs for; nil for a step without `for-each`.
    public let index: Int?

    init(_ call: HostStepCall) {
        name = call.name
        step = call.step
        inputs = call.inputs.mapValues(FlowValue.init)
        attempt = call.attempt
        index = call.index
    }
}

extension FlowValue {
    /// The value as the engine keeps it.
    var engineValue: Value {
        switch self {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .number(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let values): .array(values.map(\.engineValue))
        case .object(let fields): .object(fields.mapValues(\.engineValue))
        }
    }
}
