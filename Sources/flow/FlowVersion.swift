/// The version `flow --version` prints.
enum FlowVersion {
    static let current = "0.1.0"
}
