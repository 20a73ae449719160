/// The local HTTP API used by the demo, the tests and the benchmarks.
public enum SandboxInfo {
    /// The host the sandbox binds to unless told otherwise.
    public static let defaultHost = "127.0.0.1"
}
