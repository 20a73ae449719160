extension StepParser {
    /// `http-version:` among an `http` step's fields: `"1.0"`, `"1.1"` or `"2"` (quoted or not).
    mutating func parseHTTPVersion(_ field: NodeReader.Fields) -> HTTPVersionSetting? {
        field["http-version"].flatMap { reader.choice($0.value, "'http-version'", as: HTTPVersionSetting.self) }
    }
}
