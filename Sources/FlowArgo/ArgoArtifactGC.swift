/// When Argo deletes the records a Workflow saved in the artifact repository
/// (`spec.artifactGC.strategy`, `--artifact-gc`; see Grammar.md). Without it they stay in the
/// bucket forever: one object per item of every fanned-out step of every run.
enum ArgoArtifactGC: String, CaseIterable {
    /// When the Workflow is deleted (by hand, `podGC`/`ttlStrategy` or the archive's retention):
    /// the records stay readable as long as the Workflow is (the default).
    case onWorkflowDeletion = "OnWorkflowDeletion"
    /// As soon as the Workflow completes.
    case onWorkflowCompletion = "OnWorkflowCompletion"
    /// Never (Argo's default): no `artifactGC` in the manifest.
    case never = "Never"

    /// `--artifact-gc` as given; a problem naming the choices otherwise.
    init(argument: String) throws(ArgoManifest.Problem) {
        guard let strategy = Self(rawValue: argument) else {
            throw ArgoManifest.Problem(
                message: "--artifact-gc \(argument): expected "
                    + Self.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = strategy
    }
}
