extension HTTPRequest {
    /// What makes this request impossible to send, in words; `nil` when it is fine.
    ///
    /// Checked before curl sees the request so a typo gives a clear message rather than curl's
    /// guess (curl would, for instance, try `http://` for a URL without a scheme).
    var validationProblem: String? {
        let secure = Self.hasScheme("https://", url)
        guard secure || Self.hasScheme("http://", url) else {
            return "the URL '\(url)' must start with http:// or https://"
        }
        guard url.count > (secure ? 8 : 7) else {
            return "the URL '\(url)' has no host"
        }
        if url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return "the URL '\(url)' contains spaces or control characters; percent-encode them"
        }
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenByte) else {
            return "the method '\(method)' is not a valid HTTP method name"
        }
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                return "the header name '\(name)' is not valid (letters, digits and !#$%&'*+-.^_`|~ only)"
            }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) {
                return "the value of header '\(name)' contains a line break"
            }
        }
        if case .file(let path, let offset, let length) = body {
            if path.isEmpty { return "the body file path is empty" }
            if offset < 0 || length < 0 {
                return "the body range of '\(path)' is negative (offset \(offset), length \(length))"
            }
        }
        if maxResponseBodySize < 0 {
            return "the response size limit is negative (\(maxResponseBodySize))"
        }
        return nil
    }

    /// Whether `url` starts with `scheme` (lower-case ASCII, such as `https://`) in any case.
    /// Compared in place: every request is checked, and lower-casing the URL copied it.
    static func hasScheme(_ scheme: StaticString, _ url: String) -> Bool {
        let prefix = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
        var bytes = url.utf8.makeIterator()
        for expected in prefix {
            guard let byte = bytes.next() else { return false }
            // Setting bit 5 lower-cases an ASCII letter; the scheme's `:` and `/` must match as they are.
            guard byte == expected || (expected >= 0x61 && expected <= 0x7A && byte | 0x20 == expected) else {
                return false
            }
        }
        return true
    }

    /// RFC 9110 token characters, the only ones allowed in methods and header names.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
