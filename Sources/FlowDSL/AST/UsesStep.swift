/// A `uses:` step: another workflow file run as one step, its inputs given by `with`.
package struct UsesStep: Sendable, Hashable {
    /// The path as written (`./deploy.yaml`), relative to the calling file's folder.
    package let path: String
    /// The called file as diagnostics and locations name it: the calling file's folder joined
    /// with `path` (`workflows/lib/deploy.yaml`).
    package let file: String
    /// The called file's absolute, normalized path: the key of `Workflow.called`.
    package let resolvedPath: String
    /// The called file's input values, in file order: literal text or `${{ }}` evaluated in the
    /// calling step's scope.
    package let with: [NamedValue]
    /// Where `uses:`'s value is written.
    package let location: SourceLocation

    /// Creates a `uses` step.
    package init(path: String, file: String, resolvedPath: String, with: [NamedValue], location: SourceLocation) {
        self.path = path
        self.file = file
        self.resolvedPath = resolvedPath
        self.with = with
        self.location = location
    }
}
