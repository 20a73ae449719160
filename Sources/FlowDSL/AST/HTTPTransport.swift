/// `tls:` of a request or of `defaults.http`: which certificates to trust and present. A step's
/// keys override the defaults' one by one (see `overriding(_:)`).
package struct TLSSettings: Sendable, Hashable {
    /// `ca-file`: a PEM file of the CAs to trust, relative to the workflow file's folder.
    package let caFile: ScalarText?
    /// `cert-file`: the client certificate (PEM), relative to the workflow file's folder.
    package let certFile: ScalarText?
    /// `key-file`: the client certificate's key (PEM), when not in `cert-file`.
    package let keyFile: ScalarText?
    /// `insecure`: whether to skip checking the server's certificate and host name. A literal
    /// boolean only, so a run can name the steps it applies to before it starts.
    package let insecure: Bool?
    /// Where `tls:` is written.
    package let location: SourceLocation

    /// Creates TLS settings.
    package init(
        caFile: ScalarText? = nil, certFile: ScalarText? = nil, keyFile: ScalarText? = nil, insecure: Bool? = nil,
        location: SourceLocation
    ) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.insecure = insecure
        self.location = location
    }

    /// These settings with each key they leave unset taken from `defaults`.
    package func overriding(_ defaults: TLSSettings?) -> TLSSettings {
        guard let defaults else { return self }
        return TLSSettings(
            caFile: caFile ?? defaults.caFile, certFile: certFile ?? defaults.certFile,
            keyFile: keyFile ?? defaults.keyFile, insecure: insecure ?? defaults.insecure, location: location)
    }

    /// The files given, each with its key's name.
    package var files: [(key: String, path: ScalarText)] {
        [("ca-file", caFile), ("cert-file", certFile), ("key-file", keyFile)].compactMap { key, path in
            path.map { (key, $0) }
        }
    }

    /// The texts that may hold `${{ }}`.
    package var texts: [ScalarText] { files.map(\.path) }
}

/// `auth:` of a request or of `defaults.http`: the `Authorization` header flow builds.
package enum HTTPAuth: Sendable, Hashable {
    /// `basic: { user, password }`: `Authorization: Basic base64(user:password)`.
    case basic(user: ScalarText, password: ScalarText)
    /// `bearer: TOKEN`: `Authorization: Bearer TOKEN`.
    case bearer(ScalarText)

    /// The texts that may hold `${{ }}`.
    package var texts: [ScalarText] {
        switch self {
        case .basic(let user, let password): return [user, password]
        case .bearer(let token): return [token]
        }
    }
}

/// `proxy:` of a request or of `defaults.http`.
package enum ProxySetting: Sendable, Hashable {
    /// A proxy URL such as `http://proxy.internal:3128`.
    case url(ScalarText)
    /// `none`: no proxy, whatever `http_proxy` and the like say.
    case direct

    /// The texts that may hold `${{ }}`.
    package var texts: [ScalarText] {
        if case .url(let text) = self { return [text] }
        return []
    }
}

/// The transport keys a request and `defaults.http` share: `tls`, `auth`, `proxy`, `cookies`.
/// A request's value wins over the default's (`tls` key by key).
package struct HTTPTransportSettings: Sendable, Hashable {
    /// `tls:`.
    package let tls: TLSSettings?
    /// `auth:`.
    package let auth: HTTPAuth?
    /// `proxy:`.
    package let proxy: ProxySetting?
    /// `cookies:`: whether the request uses the run's cookie jar.
    package let cookies: Bool?

    /// Creates transport settings; none by default.
    package init(tls: TLSSettings? = nil, auth: HTTPAuth? = nil, proxy: ProxySetting? = nil, cookies: Bool? = nil) {
        self.tls = tls
        self.auth = auth
        self.proxy = proxy
        self.cookies = cookies
    }

    /// These settings over `defaults`: each key set here wins, `tls` key by key.
    package func overriding(_ defaults: HTTPTransportSettings) -> HTTPTransportSettings {
        HTTPTransportSettings(
            tls: tls.map { $0.overriding(defaults.tls) } ?? defaults.tls, auth: auth ?? defaults.auth,
            proxy: proxy ?? defaults.proxy, cookies: cookies ?? defaults.cookies)
    }

    /// The texts that may hold `${{ }}`.
    package var texts: [ScalarText] {
        (tls?.texts ?? []) + (auth?.texts ?? []) + (proxy?.texts ?? [])
    }
}

extension HTTPDefaults {
    /// The texts of `tls`, `auth`, `proxy` and `no-proxy`, which may hold `${{ }}`.
    package var transportTexts: [ScalarText] { transport.texts + (noProxy.map { [$0] } ?? []) }
}
