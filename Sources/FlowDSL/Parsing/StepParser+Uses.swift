extension StepParser {
    /// `uses: ./file.yaml` with `with: { input: value }`; the file itself is read by the checker.
    mutating func parseUses(
        _ kindEntry: NodeReader.Entry, fields: NodeReader.Fields, id: String
    ) -> UsesStep? {
        if let retry = fields["retry"] {
            reader.error(
                "'retry' does not apply to 'uses' steps",
                at: retry.keyNode,
                hint: "retry the steps of the called file (their own 'retry' or its 'defaults.retry')"
            )
        }
        let with = fields["with"].map { reader.namedValues($0.value, "'with'") } ?? []
        guard let path = reader.string(kindEntry.value, "'uses'") else { return nil }
        if UsesPath.isURL(path) {
            reader.error(
                "'uses' takes a local workflow file, not a URL ('\(Echo.text(path))')",
                at: kindEntry.value,
                hint: "download the file next to this one and write 'uses: ./name.yaml'"
            )
            return nil
        }
        if path.contains("${{") {
            reader.error(
                "'uses' is a fixed path; it cannot contain '${{ }}'",
                at: kindEntry.value,
                hint: "the called file is read and checked before anything runs; pass values with 'with'"
            )
            return nil
        }
        guard !path.trimmingSpaces.isEmpty else {
            reader.error("'uses' is empty", at: kindEntry.value, hint: "write 'uses: ./name.yaml'")
            return nil
        }
        let file = UsesPath.display(path, calledFrom: reader.file)
        return UsesStep(
            path: path, file: file, resolvedPath: UsesPath.absolute(file), with: with,
            location: reader.location(kindEntry.value))
    }
}
