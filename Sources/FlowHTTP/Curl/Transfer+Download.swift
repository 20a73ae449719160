internal import CCurlShim

extension Transfer {
    /// `CURLOPT_BUFFERSIZE` of a `save-to` download (curl allows up to 10 MiB).
    static let saveBufferSize = 512 * 1024

    /// How the response body is asked for: compressed (`CURLOPT_ACCEPT_ENCODING`) for a body kept
    /// in memory, or the rest of a partial file (`CURLOPT_RANGE`) for a resumed download.
    func configureResponseBody(_ check: (CURLcode) -> Void) {
        if let target = request.saveTo {
            // A larger receive buffer than curl's 16 KiB: a 1 GiB body then takes 2,048 write
            // callbacks and write(2)s instead of 65,536.
            check(flow_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.saveBufferSize))
            // curl's own resume option (`CURLOPT_RESUME_FROM_LARGE`) fails when the server sends
            // the whole body again; a plain range lets a `200` restart the file instead.
            if target.resumeFrom > 0 {
                check(flow_easy_setopt_string(easy, CURLOPT_RANGE, "\(target.resumeFrom)-"))
            }
        } else if request.decodesContent {
            // "" offers every encoding this libcurl was built to decode, and decodes it; the
            // write callback then counts decoded bytes against the body limit.
            check(flow_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, ""))
        }
    }
}
