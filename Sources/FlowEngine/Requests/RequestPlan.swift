import FlowDSL
import FlowHTTP

/// The request an `http` step sends: method, absolute URL with the query encoded, headers
/// (defaults first, the step's own winning) and a description of the body.
///
/// One pure function (`RequestPlan.init(_:defaults:baseURL:text:json:encode:)`) computes it for the
/// runner, for `--dry-run` and for reports, so what the dry run prints is what is sent. How values
/// are produced is the caller's: the runner evaluates expressions, the dry run shows placeholders.
package struct RequestPlan: Sendable, Equatable {
    /// What the body is, before it is read or encoded into bytes.
    package enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// JSON text (`json:`).
        case json(String)
        /// URL-encoded fields (`form:`), already encoded.
        case form(String)
        /// Text sent as is (`body:`).
        case text(String)
        /// Bytes sent as they are (`body: { base64: … }` or `{ hex: … }`), decoded.
        case binary([UInt8])
        /// A binary body whose text holds a value known only at run time (the dry run's
        /// placeholders): the encoding and the text as written.
        case binaryKnownAtRunTime(BinaryEncoding, String)
        /// The path of a file streamed as the body (`body-file:`).
        case file(String)
        /// `multipart/form-data` parts (`multipart:`), in order.
        case multipart([MultipartPlan])
    }

    /// One request header.
    package struct Header: Sendable, Equatable {
        /// Its name, as written.
        package let name: String
        /// Its value.
        package let value: String
    }

    /// The method, upper case.
    package let method: String
    /// The absolute URL with the query added.
    package let url: String
    /// `method` and `url`, as the runner's request has them and reports show them.
    package var line: HTTPRequestLine { HTTPRequestLine(method: method, url: url) }
    /// Headers in the order sent; a name appears once (case-insensitively) unless the step or the
    /// defaults list several values for it.
    package let headers: [Header]
    /// The body.
    package let body: Body

    /// Builds the request of `http`. `text` produces a string's value, `json` a JSON body's text.
    /// Throws when a value cannot be produced or the URL is relative with no `baseURL`. Relative
    /// `body-file` and multipart file paths are read from `folder` (the workflow file's); `path`,
    /// when given, produces those paths instead (the runner's checks them, see `WorkflowPath`), with
    /// the key that holds each for messages.
    ///
    /// With `placeholders` (the dry run), values may contain `<steps.x.outputs.y>` and `***`: those
    /// are left as they are while the text around them is encoded, and a URL starting with `<` is
    /// taken as absolute (it is known only at run time).
    package init(
        _ http: HTTPStep, defaults: HTTPDefaults, baseURL: String?,
        text: (ScalarText) throws(StepError) -> String, json: (ValueTemplate) throws(StepError) -> String,
        placeholders: Bool = false, folder: String? = nil,
        path: ((ScalarText, String) throws(StepError) -> String)? = nil
    ) throws(StepError) {
        func filePath(_ written: ScalarText, _ key: String) throws(StepError) -> String {
            if let path { return try path(written, key) }
            return MultipartPlan.resolve(try text(written), in: folder)
        }
        let encode: (String) -> String = { Self.keepingPlaceholders($0, placeholders, PercentEncoding.encode) }
        let formEncode: (String) -> String = { Self.keepingPlaceholders($0, placeholders, Self.formEncode) }
        method = http.method.rawValue
        var query: [(String, String)] = []
        for item in http.query { query.append((item.name, try text(item.value))) }
        let written = try text(http.url)
        let absolute =
            placeholders && written.hasPrefix("<")
            ? written : try Self.absoluteURL(written, baseURL: baseURL, at: http.url.location)
        url = HTTPRequest.url(absolute, query: query, encode: encode)
        var headers: [Header] = []
        func set(_ name: String, _ value: String) {
            headers.removeAll { $0.name.lowercased() == name.lowercased() }
            headers.append(Header(name: name, value: value))
        }
        // A name given by the step replaces the defaults' fields of that name; a name listed with
        // several values (`X-Tag: [a, b]`) is sent once per value, in order.
        for source in [defaults.headers, http.headers] {
            var seen = Set<String>()
            for header in source {
                let value = try text(header.value)
                if seen.insert(header.name.lowercased()).inserted {
                    set(header.name, value)
                } else {
                    headers.append(Header(name: header.name, value: value))
                }
            }
        }
        // `auth` (the step's, else the defaults') writes `Authorization` over any header of that name.
        // `aws-sigv4` signs the request once built, when it is sent (`AWSRequestSigning`).
        if let auth = http.transport.auth ?? defaults.transport.auth {
            if case .awsSigV4 = auth {
                // Signed by the runner for each attempt, with the clock of its sending.
            } else if placeholders, case .basic = auth {
                // The encoded pair hides the password from the masker's eye; show none of it.
                set("Authorization", "Basic ***")
            } else {
                set("Authorization", try auth.headerValue(text: text))
            }
        }
        func defaultContentType(_ type: String) {
            if !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                set("Content-Type", type)
            }
        }
        switch http.body {
        case nil:
            body = .none
        case .json(let template)?:
            body = .json(try json(template))
            defaultContentType("application/json")
        case .form(let fields)?:
            var pairs: [String] = []
            for field in fields {
                pairs.append(formEncode(field.name) + "=" + formEncode(try text(field.value)))
            }
            body = .form(pairs.joined(separator: "&"))
            defaultContentType("application/x-www-form-urlencoded")
        case .text(let value)?:
            body = .text(try text(value))
        case .binary(let value, let encoding)?:
            let written = try text(value)
            if placeholders, written.contains("<") || written.contains("***") {
                body = .binaryKnownAtRunTime(encoding, written)
            } else {
                do throws(BinaryEncoding.DecodingError) {
                    body = .binary(try encoding.decode(written))
                } catch {
                    throw StepError(
                        "the '\(encoding.rawValue)' body cannot be decoded: \(error.description)", at: value.location)
                }
            }
        case .file(let path)?:
            body = .file(try filePath(path, "'body-file'"))
        case .multipart(let parts)?:
            var planned: [MultipartPlan] = []
            for part in parts {
                planned.append(
                    try MultipartPlan(
                        part, text: text,
                        path: { written throws(StepError) in try filePath(written, "multipart part '\(part.name)'") }))
            }
            body = .multipart(planned)
        }
        // What FlowHTTP would add by itself, written here so the dry run shows every header sent.
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            headers.append(Header(name: "User-Agent", value: HTTPRequest.defaultUserAgent))
        }
        self.headers = headers
    }

    /// `url`, or, when it is relative, `url` joined to `baseURL` (`defaults.http.base-url`). The
    /// scheme is compared case-insensitively, as URLs are.
    package static func absoluteURL(_ url: String, baseURL: String?, at location: SourceLocation) throws(StepError)
        -> String
    {
        if isAbsolute(url) { return url }
        guard let baseURL, !baseURL.isEmpty else {
            throw StepError("the URL '\(url)' is relative and there is no defaults.http.base-url", at: location)
        }
        let trimmedBase = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        return url.hasPrefix("/") ? trimmedBase + url : trimmedBase + "/" + url
    }

    /// Whether `url` starts with `http://` or `https://`, in any case.
    package static func isAbsolute(_ url: String) -> Bool {
        let scheme = url.prefix(8).lowercased()
        return scheme.hasPrefix("http://") || scheme.hasPrefix("https://")
    }

    /// A form component as application/x-www-form-urlencoded has it (WHATWG): letters, digits
    /// and `*-._` as they are, a space as `+`, every other byte as `%XX`.
    package static func formEncode(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// `encode(text)`, or with `placeholders`, `text` with each `<…>` and `***` kept and the rest
    /// encoded.
    private static func keepingPlaceholders(_ text: String, _ placeholders: Bool, _ encode: (String) -> String)
        -> String
    {
        guard placeholders, text.contains("<") || text.contains("***") else { return encode(text) }
        var out = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            let open = rest.firstIndex(of: "<")
            let stars = rest.range(of: "***")
            if let open, stars.map({ open < $0.lowerBound }) ?? true, let close = rest[open...].firstIndex(of: ">") {
                out += encode(String(rest[..<open])) + rest[open...close]
                rest = rest[rest.index(after: close)...]
            } else if let stars {
                out += encode(String(rest[..<stars.lowerBound])) + "***"
                rest = rest[stars.upperBound...]
            } else {
                out += encode(String(rest))
                rest = ""
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
