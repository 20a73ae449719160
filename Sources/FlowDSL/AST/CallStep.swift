/// A `call:` step: a handler the host program registers (through FlowKit's `HostStepRegistry`)
/// runs as the step, given the `with` values as JSON-like inputs; what it returns are the step's
/// outputs. flow itself registers none, so the command line reports a `call` as unknown.
package struct CallStep: Sendable, Hashable {
    /// The handler's name as written (`score-user`).
    package let name: String
    /// The inputs: a mapping (`.object`) of any YAML values whose strings may hold `${{ }}`,
    /// evaluated in the step's scope when it starts; `.object([])` without `with`.
    package let with: ValueTemplate
    /// Where `call:`'s value (the name) is written.
    package let location: SourceLocation

    /// Creates a `call` step.
    package init(name: String, with: ValueTemplate = .object([]), location: SourceLocation) {
        self.name = name
        self.with = with
        self.location = location
    }

    /// What a handler's name may be: step-id syntax, or such names joined by dots (`score-user`,
    /// `users.enrich`), so that it reads as a name and never as a path or an expression.
    package static func isValidName(_ name: String) -> Bool {
        name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
            IdentifierSyntax.isValidName(String($0))
        }
    }
}
