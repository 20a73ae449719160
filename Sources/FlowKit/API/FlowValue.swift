import FlowDSL

/// A JSON-like value: an input, a step's output, an item of a `for-each`.
///
/// ```swift
/// if case .string(let token)? = outcome.steps["login"]?.outputs["token"] { print(token) }
/// ```
public enum FlowValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON has one kind).
    case number(Double)
    /// Text.
    case string(String)
    /// A list.
    case array([FlowValue])
    /// An object, by key.
    case object([String: FlowValue])

    /// The value as the engine keeps it.
    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number, _): self = .number(number)
        case .string(let text): self = .string(text)
        case .array(let values): self = .array(values.map(FlowValue.init))
        case .object(let fields): self = .object(fields.mapValues(FlowValue.init))
        }
    }
}
