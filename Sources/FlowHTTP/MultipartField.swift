/// One part of a `multipart/form-data` request body (`HTTPBody.multipart`).
package struct MultipartField: Sendable, Equatable {
    /// Where the part's bytes come from.
    package enum Source: Sendable, Equatable {
        /// Bytes held in memory (a text field).
        case bytes([UInt8])
        /// A file that libcurl reads from disk as it sends the part (and reads again from the
        /// start when the request is sent again), so memory stays flat whatever its size.
        case file(path: String, size: Int64)
    }

    /// The field name.
    package var name: String
    /// The part's `filename` in its `Content-Disposition`; `nil` sends none for bytes, and the
    /// path's last component for a file.
    package var filename: String?
    /// The part's `Content-Type`; `nil` lets libcurl choose (none for a text field; for a file,
    /// from its name's extension, else `application/octet-stream`).
    package var contentType: String?
    /// The part's bytes.
    package var source: Source

    /// A part.
    package init(name: String, filename: String? = nil, contentType: String? = nil, source: Source) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.source = source
    }

    /// How many bytes of content the part holds (its framing not counted).
    package var size: Int64 {
        switch source {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let size): size
        }
    }
}
