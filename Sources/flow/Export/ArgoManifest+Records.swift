import FlowDSL

extension ArgoManifest {
    /// The folder every step pod writes its records to and reads its needs' from: an `emptyDir`
    /// of its own, because a pod has no such folder otherwise (the image has none, and Argo's
    /// executor makes no folder for an output parameter's path; see Grammar.md).
    static let recordsFolder = "/tmp/flow"

    /// The workflow's `emptyDir` volume for `recordsFolder`, and its mount in a step's container.
    static func recordsVolumeAndMount() -> (volume: ManifestNode, mount: ManifestNode) {
        let name = ManifestNode.string("records")
        let empty: [(String, ManifestNode)] = []
        return (
            ManifestNode.map([("name", name), ("emptyDir", ManifestNode.map(empty))]),
            ManifestNode.map([("name", name), ("mountPath", ManifestNode.string(recordsFolder))])
        )
    }
}
