/// What checking one workflow file and the files its `uses` steps call share: the chain of files
/// being read (a file met again in it is a cycle) and every file already checked (a file used
/// twice is read, checked and reported once). One per `WorkflowLoader.load`; not shared.
final class UsesContext {
    /// The files being checked, outermost first: absolute path and the name locations use.
    private(set) var chain: [(absolute: String, file: String)]
    /// Each file checked so far, by absolute path.
    private(set) var results: [String: CheckResult] = [:]

    init(root file: String) {
        chain = [(UsesPath.absolute(UsesPath.normalized(file)), file)]
    }

    /// The chain from the first appearance of `absolute` back to it (`a.yaml → b.yaml → a.yaml`),
    /// or nil when `absolute` is not being checked.
    func cycle(to absolute: String, file: String) -> String? {
        guard let start = chain.firstIndex(where: { $0.absolute == absolute }) else { return nil }
        return (chain[start...].map(\.file) + [file]).joined(separator: " → ")
    }

    /// The checked file at `absolute`, checking it (with the files it uses) on first use; `fresh`
    /// says whether this call checked it, so its diagnostics are reported once.
    func result(of absolute: String, file: String) -> (result: CheckResult, fresh: Bool) {
        if let done = results[absolute] { return (done, false) }
        chain.append((absolute, file))
        let result = WorkflowLoader.load(path: file, context: self)
        chain.removeLast()
        results[absolute] = result
        return (result, true)
    }
}
