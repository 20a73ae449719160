import FlowDSL

/// What a host step's handler is given: the step that calls it and its `with` values.
package struct HostStepCall: Sendable {
    /// The handler's name, as the step's `call:` writes it.
    package let name: String
    /// The calling step's id; in a called file, qualified by the `uses` steps that lead to it.
    package let step: String
    /// The `with` values, evaluated in the step's scope (secrets in clear: the handler is the app's
    /// own code; what it returns or throws is masked before anything prints it).
    package let inputs: [String: Value]
    /// The attempt, counted from 1 (attempts after the first are retries under the step's `retry`).
    package let attempt: Int
    /// The index of the `for-each` item this call runs for, nil for a step without `for-each`.
    package let index: Int?

    /// Creates a call (for tests of a handler).
    package init(name: String, step: String, inputs: [String: Value], attempt: Int = 1, index: Int? = nil) {
        self.name = name
        self.step = step
        self.inputs = inputs
        self.attempt = attempt
        self.index = index
    }
}

/// The handlers of `call:` steps, by name: steps a host program implements in Swift and a
/// workflow calls between its declared requests.
///
/// A handler returns the step's outputs (`steps.<id>.outputs.<name>`); a thrown error fails the
/// step, naming it and the handler, with the error's description masked and escaped. Cancelling
/// the step (its `timeout`, a lost race, a failed sibling, the run cancelled) cancels the Task the
/// handler runs in; the run ends only after every cancelled handler has returned.
///
/// ```swift
/// var hosts = HostStepRegistry()
/// hosts.register("score-user") { call in
///     let name = call.inputs["name"]?.interpolated ?? ""
///     return ["score": .number(Double(name.count))]
/// }
/// ```
package struct HostStepRegistry: Sendable {
    /// A handler: the call's inputs in, the step's outputs out.
    package typealias Handler = @Sendable (HostStepCall) async throws -> [String: Value]

    private var handlers: [String: Handler] = [:]

    /// An empty registry (the command line's: every `call` step is unknown to it).
    package init() {}

    /// Registers `handler` under `name`, replacing one registered before under that name.
    package mutating func register(_ name: String, _ handler: @escaping Handler) {
        handlers[name] = handler
    }

    /// The handler registered under `name`.
    package func handler(named name: String) -> Handler? {
        handlers[name]
    }

    /// Every registered name.
    package var names: Set<String> {
        Set(handlers.keys)
    }
}
