/// Holds a value for the rest of the process: nothing of it is released, and the system takes
/// the whole heap back at once when flow exits. For what a command has built and will not use
/// again just before it exits (issue 32).
final class KeptUntilExit<Value>: Sendable where Value: Sendable {
    private let value: Value

    private init(_ value: Value) { self.value = value }

    /// Keeps `value` until the process exits.
    static func keep(_ value: Value) {
        _ = Unmanaged.passRetained(KeptUntilExit(value))
    }
}
