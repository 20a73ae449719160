internal import CCurlShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Transfer {
    /// Builds the `multipart/form-data` body with libcurl's MIME API when the request has one.
    ///
    /// A file part is `curl_mime_filedata`: libcurl opens the file and reads it as it sends, so
    /// memory stays flat whatever the size, and it seeks back to the start by itself when the
    /// body must be sent again (a redirect keeping the method, a retry on a fresh connection).
    /// A retried step makes a new transfer, which builds the body again from the start.
    static func makeMultipart(
        _ body: HTTPBody, easy: UnsafeMutableRawPointer, url: String
    ) throws(HTTPError) -> OpaquePointer? {
        guard case .multipart(let fields) = body else { return nil }
        guard let mime = curl_mime_init(easy) else {
            throw HTTPError(kind: .other, message: "curl could not make a multipart body for \(url)", url: url)
        }
        for field in fields {
            if let problem = add(field, to: mime) {
                curl_mime_free(mime)
                throw HTTPError(
                    kind: .invalidRequest, message: "multipart part '\(field.name)': \(problem)", url: url)
            }
        }
        return mime
    }

    /// Adds one part; returns why it could not be, or `nil`.
    private static func add(_ field: MultipartField, to mime: OpaquePointer) -> String? {
        guard let part = curl_mime_addpart(mime) else { return "curl could not add the part" }
        var code = curl_mime_name(part, field.name)
        switch field.source {
        case .bytes(let bytes):
            if code == CURLE_OK {
                code = bytes.withUnsafeBufferPointer { buffer in
                    // curl copies the bytes; a null pointer with size 0 sends an empty part.
                    buffer.baseAddress.map { pointer in
                        pointer.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                            curl_mime_data(part, $0, buffer.count)
                        }
                    } ?? curl_mime_data(part, "", 0)
                }
            }
        case .file(let path, _):
            if code == CURLE_OK {
                code = curl_mime_filedata(part, path)
                if code == CURLE_READ_ERROR {
                    return "cannot read the file '\(path)': \(String(cString: strerror(errno)))"
                }
            }
        }
        if code == CURLE_OK, let filename = field.filename { code = curl_mime_filename(part, filename) }
        if code == CURLE_OK, let type = field.contentType { code = curl_mime_type(part, type) }
        return code == CURLE_OK ? nil : String(cString: curl_easy_strerror(code))
    }
}
