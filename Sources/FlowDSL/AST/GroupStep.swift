/// A `parallel:` group: children that start together and finish by `any` or `all`.
public struct GroupStep: Sendable, Hashable {
    /// How a group decides it is done.
    public enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Every child must succeed; the first failure cancels the rest (unless `fail-fast: false`).
        case all
        /// The first success (or `at-least` successes) wins and cancels the others.
        case any
    }

    /// `any` or `all`.
    public let mode: Mode
    /// For `any`: the successes required (default 1).
    public let atLeast: Int?
    /// For `all`: whether the first failure cancels the others (default true).
    public let failFast: Bool
    /// The children, in file order.
    public let children: [Step]
    /// Where `parallel:` is written.
    public let location: SourceLocation?

    /// Creates a group.
    public init(mode: Mode, atLeast: Int?, failFast: Bool, children: [Step], location: SourceLocation? = nil) {
        self.mode = mode
        self.atLeast = atLeast
        self.failFast = failFast
        self.children = children
        self.location = location
    }
}
