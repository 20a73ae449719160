/// Why a parallel group failed: the children that failed, each with its error.
package struct GroupFailure: Error, Sendable, CustomStringConvertible {
    /// The group's id.
    package let group: String
    /// What the group needed.
    package let policy: GroupPolicy
    /// The children that failed (or, for `any`, did not succeed), in declaration order.
    package let failures: [ChildFailure]

    /// One child's failure.
    package struct ChildFailure: Sendable {
        /// The child's id.
        package let id: String
        /// What it failed with.
        package let error: any Error
    }

    /// A message naming every failed child.
    package var description: String {
        let list = failures.map { "'\($0.id)': \($0.error)" }.joined(separator: "; ")
        switch policy.mode {
        case .all:
            return "group '\(group)' (parallel: all) failed: \(list)"
        case .any where policy.atLeast > 1:
            return
                "group '\(group)' (parallel: any, at-least: \(policy.atLeast)) could not get enough successes: \(list)"
        case .any:
            return "group '\(group)' (parallel: any) failed: every child failed: \(list)"
        }
    }
}

/// A child of an `any` group that was skipped, which is not a success.
struct ChildSkipped: Error, CustomStringConvertible {
    let id: String
    var description: String { "skipped" }
}

/// A child's failure as seen by its group's combinator.
struct ChildFailed: Error {
    let id: String
    let error: any Error
}
