internal import CCurlShim

/// libcurl's process-wide set-up.
enum CurlGlobal {
    /// `curl_global_init` is not thread-safe and must run before any other thread uses curl; a
    /// static's initializer runs exactly once, whichever thread gets there first, and the others
    /// wait for it.
    static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
}
