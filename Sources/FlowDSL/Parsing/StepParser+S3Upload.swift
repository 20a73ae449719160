extension StepParser {
    /// The keys only `protocol: s3` takes.
    static let s3UploadKeys = ["region", "chunks-in-flight", "storage-class", "content-type", "checksum"]

    /// The `protocol: s3` keys of an `upload`; reports them on another protocol, and a `chunk-size`
    /// or `method` S3 cannot take.
    mutating func parseS3Upload(
        _ field: NodeReader.Fields, uploadProtocol: UploadProtocol, chunkSizeGiven: Bool
    ) -> S3UploadSettings? {
        guard uploadProtocol == .s3 else {
            for key in Self.s3UploadKeys {
                if let entry = field[key] {
                    reader.error("'\(key)' is only for 'protocol: s3'", at: entry.keyNode)
                }
            }
            return nil
        }
        var settings = S3UploadSettings()
        settings.partSizeGiven = chunkSizeGiven
        if let entry = field["method"] {
            reader.error(
                "'method' does not go with 'protocol: s3'", at: entry.keyNode,
                hint: "S3 parts are always sent with PUT")
        }
        if let entry = field["chunk-size"], case .scalar(let scalar) = entry.value,
            let size = SizeSyntax.parse(scalar.string),
            size < S3UploadSettings.minimumPartSize || size > S3UploadSettings.maximumPartSize
        {
            reader.error(
                "an S3 part must be 5MiB to 5GiB (all but the last), not \(SizeSyntax.format(size))", at: entry.value,
                hint: "leave 'chunk-size' out to have flow choose the part size from the file's size")
        }
        settings.region = field["region"].flatMap { reader.text($0.value, "'region'") }
        settings.storageClass = field["storage-class"].flatMap { reader.text($0.value, "'storage-class'") }
        settings.contentType = field["content-type"].flatMap { reader.text($0.value, "'content-type'") }
        if let entry = field["chunks-in-flight"],
            let count = reader.integer(entry.value, "'chunks-in-flight'", atLeast: 1)
        {
            if count > 64 {
                reader.error("'chunks-in-flight' must be at most 64, not \(count)", at: entry.value)
            }
            settings.partsInFlight = count
        }
        if let entry = field["checksum"],
            let checksum = reader.choice(entry.value, "S3 checksum", as: S3UploadSettings.Checksum.self)
        {
            settings.checksum = checksum
        }
        return settings
    }
}
