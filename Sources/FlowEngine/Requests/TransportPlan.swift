import FlowDSL
import FlowHTTP

/// How a request of a step reaches its server: the TLS files (a step's `tls` keys over the
/// defaults', relative paths from the workflow file's folder, the CA file from `CURL_CA_BUNDLE`
/// or `SSL_CERT_FILE` when none is given), whether verification is off, the proxy and the cookie
/// jar. One pure function for the runners and `--dry-run`, like `RequestPlan`.
package struct TransportPlan: Sendable, Equatable {
    /// A file a `tls` key names, resolved.
    package struct File: Sendable, Equatable {
        /// The key (`ca-file`, `cert-file`, `key-file`) or the environment variable it came from.
        package let source: String
        /// The path as written (or as the variable holds it).
        package let written: String
        /// The path used: `written` joined to the workflow file's folder when relative.
        package let path: String
        /// Where the key is written; `nil` for a variable.
        package let location: SourceLocation?
    }

    /// The CA certificates to trust, if not the system's.
    package let caFile: File?
    /// The client certificate.
    package let certFile: File?
    /// The client certificate's key.
    package let keyFile: File?
    /// `tls.insecure`: whether the server's certificate goes unchecked.
    package let insecure: Bool
    /// The proxy: a URL, `""` for none, `nil` for the environment's variables (as libcurl reads them).
    package let proxy: String?
    /// `defaults.http.no-proxy`; `nil` for `NO_PROXY` / `no_proxy`.
    package let noProxy: String?
    /// Whether the request uses the run's cookie jar.
    package let cookies: Bool

    /// The variables curl's command-line tool reads for its default CA file, in its order.
    package static let caFileVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE"]

    /// The plan for a request with `settings` (already laid over the defaults). `folder` is the
    /// workflow file's folder; `text` produces a text's value.
    package init(
        _ settings: HTTPTransportSettings, noProxy: ScalarText?, folder: String, environment: [String: String],
        text: (ScalarText) throws(StepError) -> String
    ) throws(StepError) {
        func file(_ key: String, _ written: ScalarText?) throws(StepError) -> File? {
            guard let written else { return nil }
            let value = try text(written)
            return File(
                source: "tls.\(key)", written: value, path: Workflow.path(value, in: folder),
                location: written.location)
        }
        let tls = settings.tls
        var caFile = try file("ca-file", tls?.caFile)
        if caFile == nil {
            for name in Self.caFileVariables {
                if let value = environment[name], !value.isEmpty {
                    caFile = File(source: name, written: value, path: value, location: nil)
                    break
                }
            }
        }
        self.caFile = caFile
        certFile = try file("cert-file", tls?.certFile)
        keyFile = try file("key-file", tls?.keyFile)
        insecure = tls?.insecure ?? false
        switch settings.proxy {
        case .url(let url)?: proxy = try text(url)
        case .direct?: proxy = ""
        case nil: proxy = nil
        }
        if let noProxy { self.noProxy = try text(noProxy) } else { self.noProxy = nil }
        cookies = settings.cookies ?? false
    }

    /// The options FlowHTTP sends the request with.
    package var options: HTTPTransportOptions {
        HTTPTransportOptions(
            caFile: caFile?.path, certFile: certFile?.path, keyFile: keyFile?.path, proxy: proxy, noProxy: noProxy,
            cookies: cookies)
    }

    /// The lines `--dry-run` shows: the files, verification, proxy and cookies that apply.
    package var described: [String] {
        var lines: [String] = []
        for file in [caFile, certFile, keyFile].compactMap({ $0 }) {
            lines.append("\(file.source) \(file.path)")
        }
        if insecure { lines.append("tls.insecure: the server's certificate is NOT checked") }
        switch proxy {
        case nil: break
        case ""?: lines.append("proxy none (the proxy variables are ignored)")
        case let url?: lines.append("proxy \(url)")
        }
        if let noProxy { lines.append("no-proxy \(noProxy)") }
        if cookies { lines.append("cookies: the run's cookie jar") }
        return lines
    }
}

extension HTTPAuth {
    /// The `Authorization` header's value; `text` produces each text's value.
    func headerValue(text: (ScalarText) throws(StepError) -> String) throws(StepError) -> String {
        switch self {
        case .basic(let user, let password):
            return "Basic " + Base64.encode(Array((try text(user) + ":" + (try text(password))).utf8))
        case .bearer(let token):
            return "Bearer " + (try text(token))
        }
    }
}

extension TransportPlan {
    /// An error for each file that is missing or cannot be read, naming its key and where it is
    /// written (or the variable it came from), so it fails before any request rather than as a
    /// TLS error from the first one.
    /// A CA file from the environment is checked only with `environment` (for `https://` URLs):
    /// a plain-HTTP run does not fail for a variable it never uses.
    package func unreadableFiles(at fallback: SourceLocation, environment: Bool = true) -> [StepError] {
        [caFile, certFile, keyFile].compactMap { file in
            guard let file, !Self.isReadableFile(file.path), environment || file.location != nil else { return nil }
            let shown = file.path == file.written ? "'\(file.path)'" : "'\(file.written)' (\(file.path))"
            let why = Self.exists(file.path) ? "cannot be read" : "does not exist"
            if file.location == nil {
                return StepError(
                    "the CA file \(shown) named by the environment variable \(file.source) \(why); "
                        + "fix or unset \(file.source), or give 'tls.ca-file'",
                    at: fallback)
            }
            return StepError("\(file.source) \(shown) \(why)", at: file.location ?? fallback)
        }
    }
}
