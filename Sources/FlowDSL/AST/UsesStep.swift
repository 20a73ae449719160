/// A `uses:` step: another workflow file run as one step, its inputs given by `with`.
public struct UsesStep: Sendable, Hashable {
    /// The path as written (`./deploy.yaml`), relative to the calling file's folder.
    public let path: String
    /// The called file as diagnostics and locations name it: the calling file's folder joined
    /// with `path` (`workflows/lib/deploy.yaml`).
    public let file: String
    /// The called file's absolute, normalized path: the key of `Workflow.called`.
    public let resolvedPath: String
    /// The called file's input values, in file order: literal text or `${{ }}` evaluated in the
    /// calling step's scope.
    public let with: [NamedValue]
    /// Where `uses:`'s value is written.
    public let location: SourceLocation

    /// Creates a `uses` step.
    public init(path: String, file: String, resolvedPath: String, with: [NamedValue], location: SourceLocation) {
        self.path = path
        self.file = file
        self.resolvedPath = resolvedPath
        self.with = with
        self.location = location
    }
}
