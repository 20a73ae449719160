import FlowDSL

extension FlowValue {
    /// `fields` as typed values. No outputs (most steps' and items') give the shared empty
    /// dictionary: `mapValues` allocated a table even for none, and a 100,000-item `for-each`'s
    /// finish made one for each item, 11 MB at the run's peak (BENCHMARKS.md, "Run journal",
    /// issue 32).
    static func fields(_ fields: [String: Value]) -> [String: FlowValue] {
        fields.isEmpty ? [:] : fields.mapValues(FlowValue.init)
    }
}
