internal import CCurlShim
internal import CDigest

/// libcurl's process-wide set-up.
enum CurlGlobal {
    /// `curl_global_init` is not thread-safe and must run before any other thread uses curl; a
    /// static's initializer runs exactly once, whichever thread gets there first, and the others
    /// wait for it.
    ///
    /// OpenSSL is initialised first without its exit-time cleanup: curl's loop thread may still be
    /// opening or closing TLS connections when the process exits, and that cleanup would free
    /// OpenSSL's state under it. CDigest does this before main already (OpenSSLExit.c); calling it
    /// here also keeps that file, and its constructor, in a binary linked from static archives,
    /// where an object file nothing names is left out.
    static let initialized: Bool = {
        flow_openssl_keep_state_at_exit()
        return curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()
}
