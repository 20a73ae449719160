/// A failure with a message, thrown where a test cannot go on (a failed expectation outside
/// `#expect`, a fake step's failure).
public struct TestFailure: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// A failure saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
