/// Where and how a sandbox listens, and where it keeps uploads.
package struct SandboxConfiguration: Sendable {
    /// The address to bind; loopback unless a demo needs otherwise.
    package var host: String = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read it back from `Sandbox.port`).
    package var port: Int = 0
    /// The folder for uploads; nil means a fresh temporary folder removed on stop.
    package var storageDirectory: String?
    /// Whether each event keeps its request body's SHA-256 (and the body itself, up to 1 MiB of
    /// UTF-8), for tests that compare what two runs sent; off by default, as hashing costs.
    package var recordsBodies = false

    /// Makes a configuration; the defaults suit tests: loopback, a free port, a temporary folder.
    package init(
        host: String = "127.0.0.1", port: Int = 0, storageDirectory: String? = nil, recordsBodies: Bool = false
    ) {
        self.host = host
        self.port = port
        self.storageDirectory = storageDirectory
        self.recordsBodies = recordsBodies
    }
}
