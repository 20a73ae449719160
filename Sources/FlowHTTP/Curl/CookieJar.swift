internal import CCurlShim

/// The client's cookie jar (a curl share handle), read and filled on the loop thread through a
/// short-lived easy handle that uses the share: libcurl's own Netscape-format reader
/// (`CURLOPT_COOKIELIST`, one line at a time) and writer (`CURLINFO_COOKIELIST`), the ones behind
/// curl's `-b FILE` and `-c FILE`.
enum CookieJar {
    /// Adds `lines` to the jar behind `share`, then lists every cookie in it.
    static func exchange(adding lines: [String], share: UnsafeMutableRawPointer) -> [String] {
        guard let easy = curl_easy_init() else { return [] }
        defer { curl_easy_cleanup(easy) }
        _ = flow_easy_setopt_pointer(easy, CURLOPT_SHARE, share)
        // Turns the cookie engine on without reading a file.
        _ = flow_easy_setopt_string(easy, CURLOPT_COOKIEFILE, "")
        for line in lines {
            let trimmed = line.hasSuffix("\r") ? String(line.dropLast()) : line
            // A `#HttpOnly_` line is a cookie (curl writes them so); other `#` lines are comments.
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") || trimmed.hasPrefix("#HttpOnly_") else { continue }
            _ = flow_easy_setopt_string(easy, CURLOPT_COOKIELIST, trimmed)
        }
        var list: UnsafeMutableRawPointer?
        guard flow_easy_getinfo_pointer(easy, CURLINFO_COOKIELIST, &list) == CURLE_OK, let list else { return [] }
        let first = list.assumingMemoryBound(to: curl_slist.self)
        defer { curl_slist_free_all(first) }
        var cookies: [String] = []
        var node: UnsafeMutablePointer<curl_slist>? = first
        while let current = node {
            if let data = current.pointee.data { cookies.append(String(cString: data)) }
            node = current.pointee.next
        }
        return cookies
    }
}
