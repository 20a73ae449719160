/// The executor of checked workflows. Filled in by the `flow run` work.
public enum FlowEngine {
    /// The step kinds this engine knows how to run.
    public static let stepKinds: [String] = []
}
