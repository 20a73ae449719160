internal import CCurlShim

extension HTTPError {
    /// The message of a TLS failure: what is wrong with whose certificate, and which `tls` key of
    /// a flow step fixes it. `nil` when the failure is not about certificates.
    static func tlsMessage(code: CURLcode, detail: String, url: String, withoutClientCertificate: Bool) -> String? {
        let host = Self.host(of: url)
        let lowered = detail.lowercased()
        if lowered.contains("certificate required") {
            // TLS 1.3 servers refuse a missing client certificate after the handshake, so curl
            // sees it as a failed read; the alert's name says what happened.
            return "the server \(host) (\(url)) asks for a client certificate and none was given: "
                + "set 'tls.cert-file' (and 'tls.key-file' when the key is in its own file) (\(detail))"
        }
        if lowered.contains("alert handshake failure"), withoutClientCertificate {
            // TLS 1.2 servers have no alert of their own for a missing client certificate: they
            // end the handshake with this generic one, which also means "no common cipher".
            return "the server \(host) (\(url)) refused the TLS handshake (\(detail)); "
                + clientCertificateHint(url) + "; otherwise the server and flow share no TLS version or cipher"
        }
        switch code {
        case CURLE_PEER_FAILED_VERIFICATION:
            if lowered.contains("expired") {
                return "the TLS certificate of \(host) has expired (\(url): \(detail)); the server needs a "
                    + "current certificate ('tls.insecure: true' skips every check, only for a server you trust)"
            }
            if lowered.contains("subject name") || lowered.contains("host name") || lowered.contains("hostname") {
                return "the TLS certificate of \(host) is not made out for the host name '\(Self.hostName(of: host))' "
                    + "(\(url): \(detail)); use the name the certificate is for in the URL "
                    + "('tls.insecure: true' skips every check, only for a server you trust)"
            }
            return "the TLS certificate of \(host) is not trusted (\(url): \(detail)); if a private CA "
                + "signed it, give that CA's certificate as 'tls.ca-file' (or set SSL_CERT_FILE), or, only "
                + "for a server you trust, turn verification off with 'tls.insecure: true'"
        case CURLE_SSL_CACERT_BADFILE:
            return "the CA certificates for \(url) could not be read from the file given as 'tls.ca-file' "
                + "(or SSL_CERT_FILE / CURL_CA_BUNDLE): \(detail)"
        case CURLE_SSL_CERTPROBLEM:
            return "the client certificate for \(url) could not be used; check 'tls.cert-file' and "
                + "'tls.key-file' (PEM, the key unencrypted and matching the certificate): \(detail)"
        default:
            return nil
        }
    }

    /// The hint for a server that may want a client certificate flow did not present.
    static func clientCertificateHint(_ url: String) -> String {
        "a server that requires a client certificate does this when none is given: if \(host(of: url)) "
            + "does, set 'tls.cert-file' (and 'tls.key-file' when the key is in its own file)"
    }

    /// Whether a failure curl reports as a broken read is really the server refusing the client's
    /// (missing) certificate.
    static func isClientCertificateRefusal(_ detail: String) -> Bool {
        detail.lowercased().contains("certificate required")
    }

    /// `host` without its port (`[::1]:8443` gives `[::1]`).
    static func hostName(of host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    }

    /// The host (and port, when written) of `url`, without any user name or password.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return String(rest)
    }
}
