/// One part of an `http` step's `multipart:` body (`multipart/form-data`).
package struct MultipartPart: Sendable, Hashable {
    /// What the part carries.
    package enum Content: Sendable, Hashable {
        /// `field: value`, or `field: { value: …, content-type: … }`: text sent as the part's body.
        case text(ScalarText, contentType: ScalarText?)
        /// `field: { file: PATH, filename: NAME, content-type: TYPE }`: a file streamed from disk.
        /// A relative path is read from the workflow file's folder; the filename defaults to
        /// the path's last component, the content type to `application/octet-stream`.
        case file(path: ScalarText, filename: ScalarText?, contentType: ScalarText?)
    }

    /// The field name (the part's `Content-Disposition` name).
    package let name: String
    /// Where the field's key is written.
    package let location: SourceLocation
    /// The part's body.
    package let content: Content

    /// Creates a part.
    package init(name: String, location: SourceLocation, content: Content) {
        self.name = name
        self.location = location
        self.content = content
    }

    /// Every text of the part that may hold `${{ }}`.
    package var texts: [ScalarText] {
        switch content {
        case .text(let value, let type): return [value] + (type.map { [$0] } ?? [])
        case .file(let path, let filename, let type): return [path] + [filename, type].compactMap { $0 }
        }
    }
}
