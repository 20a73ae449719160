/// One `Set-Cookie` response header, parsed as RFC 6265 section 5.2 tells a user agent to: the
/// name and value, then each attribute (names in any case; the last of a repeated one wins). An
/// attribute the RFC says to ignore (a `Max-Age` that is not a whole number, a `Path` that does not
/// start with `/`) is left out, as a browser would; an unknown attribute is skipped.
package struct SetCookie: Sendable, Equatable {
    /// The cookie's name (case-sensitive).
    package var name: String
    /// The cookie's value, as sent (quotes kept).
    package var value: String
    /// `Expires`, the date text as sent.
    package var expires: String?
    /// `Max-Age` in seconds (zero or less expires the cookie at once).
    package var maxAge: Int?
    /// `Domain`, without a leading `.` and lower-cased.
    package var domain: String?
    /// `Path`, when it starts with `/`.
    package var path: String?
    /// Whether `Secure` is present.
    package var secure = false
    /// Whether `HttpOnly` is present.
    package var httpOnly = false
    /// `SameSite` as sent (`Strict`, `Lax`, `None`).
    package var sameSite: String?

    /// Parses one header value; `nil` when RFC 6265 says to ignore it (no `=` in the name-value
    /// pair, or an empty name).
    package init?(_ header: String) {
        var parts = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        name = Self.trimmed(pair[..<equals])
        value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty else { return nil }
        for part in parts {
            let attribute: String
            let text: String
            if let equals = part.firstIndex(of: "=") {
                attribute = Self.trimmed(part[..<equals])
                text = Self.trimmed(part[part.index(after: equals)...])
            } else {
                attribute = Self.trimmed(Substring(part))
                text = ""
            }
            apply(attribute.lowercased(), text)
        }
    }

    private mutating func apply(_ attribute: String, _ text: String) {
        switch attribute {
        case "expires":
            expires = text
        case "max-age":
            // 5.2.2: a leading '-' or a digit, then only digits; anything else is ignored.
            let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return }
            maxAge = Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
        case "domain":
            guard !text.isEmpty else { return }
            domain = (text.hasPrefix(".") ? String(text.dropFirst()) : text).lowercased()
        case "path":
            path = text.hasPrefix("/") ? text : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        case "samesite":
            sameSite = text
        default:
            break
        }
    }

    /// Without the spaces and tabs around it (RFC 6265's WSP).
    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
