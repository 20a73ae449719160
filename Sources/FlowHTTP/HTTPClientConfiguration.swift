/// Limits shared by every request of one `HTTPClient`.
package struct HTTPClientConfiguration: Sendable {
    /// The most connections open at once; 0 for no cap. Requests beyond wait for a free one.
    /// Either way the client opens no more than the descriptor limit leaves room for (see
    /// `DescriptorLimit.connectionCap`, measured when the client is made).
    package var maxConnections: Int
    /// The most connections open at once to one host; 0 for no cap.
    package var maxConnectionsPerHost: Int

    /// Limits; none by default.
    package init(maxConnections: Int = 0, maxConnectionsPerHost: Int = 0) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
