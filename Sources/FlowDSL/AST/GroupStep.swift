/// A `parallel:` group: children that start together and finish by `any` or `all`.
package struct GroupStep: Sendable, Hashable {
    /// How a group decides it is done.
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        /// Every child must succeed; the first failure cancels the rest (unless `fail-fast: false`).
        case all
        /// The first success (or `at-least` successes) wins and cancels the others.
        case any
    }

    /// `any` or `all`.
    package let mode: Mode
    /// For `any`: the successes required (default 1).
    package let atLeast: Int?
    /// For `all`: whether the first failure cancels the others (default true).
    package let failFast: Bool
    /// The children, in file order.
    package let children: [Step]
    /// Where `parallel:` is written.
    package let location: SourceLocation?

    /// Creates a group.
    package init(mode: Mode, atLeast: Int?, failFast: Bool, children: [Step], location: SourceLocation? = nil) {
        self.mode = mode
        self.atLeast = atLeast
        self.failFast = failFast
        self.children = children
        self.location = location
    }
}
