/// The parts of a request URL that AWS Signature Version 4 signs, in the forms it signs them:
/// the `Host` header's value, the canonical path and query, and the path and query to send so
/// that a server reading them as sent (moto) and one that decodes and encodes them again (AWS)
/// compute the same canonical request.
struct SigV4URL: Equatable {
    /// `scheme://authority`, userinfo left out.
    let origin: String
    /// The `Host` header libcurl sends for the URL: the host, with the port unless it is the
    /// scheme's default.
    let host: String
    /// The path as given (`/` when empty), still percent-encoded as sent.
    let path: String
    /// `key=value` pairs as given, without the `?`; nil without a query.
    let query: String?

    /// Splits an absolute `http` or `https` URL; nil for anything else. Characters that are not
    /// valid in a URL (a space, UTF-8) are kept: they are encoded when the URL is signed.
    init?(_ url: String) {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        let afterAuthority = rest[authorityEnd...]
        let queryStart = afterAuthority.firstIndex(of: "?")
        let path = String(afterAuthority[..<(queryStart ?? afterAuthority.endIndex)])
        origin = "\(scheme)://\(authority)"
        host = Self.hostHeader(String(authority), scheme: scheme)
        self.path = path.isEmpty ? "/" : path
        query = queryStart.map { String(afterAuthority[afterAuthority.index(after: $0)...]) }
    }

    /// `host:port` without a port that is the scheme's default (as libcurl writes `Host`).
    private static func hostHeader(_ authority: String, scheme: String) -> String {
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else { return authority }
        let port = authority[authority.index(after: colon)...]
        let isDefault = (scheme == "http" && port == "80") || (scheme == "https" && port == "443")
        return isDefault || port.isEmpty ? String(authority[..<colon]) : authority
    }

    /// The canonical path. S3's: the path decoded and encoded once, never normalized (`a//b` is
    /// another key than `a/b`). Every other service's: dot segments and empty segments removed,
    /// then the path as sent encoded again (AWS encodes the path twice for them).
    func canonicalPath(s3: Bool) -> String {
        if s3 { return Self.encode(Self.decode(path), keepingSlash: true) }
        return Self.encode(Array(Self.removingDotSegments(path).utf8), keepingSlash: true)
    }

    /// The path to send: for S3 the canonical path (so a server that signs the path as it got it
    /// agrees), for other services the path as given (their canonical form encodes it again).
    func sentPath(s3: Bool) -> String { s3 ? canonicalPath(s3: true) : path }

    /// The query's pairs, each key and value decoded then encoded the AWS way; `hasValue` false
    /// for a bare `key` (S3's `?uploads`). `+` is a plus sign, as RFC 3986 reads it.
    var queryPairs: [(key: String, value: String, hasValue: Bool)] {
        guard let query else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let equals = pair.firstIndex(of: "=")
            let key = pair[..<(equals ?? pair.endIndex)]
            let value = equals.map { pair[pair.index(after: $0)...] } ?? ""
            return (
                Self.encode(Self.decode(String(key)), keepingSlash: false),
                Self.encode(Self.decode(String(value)), keepingSlash: false), equals != nil
            )
        }
    }

    /// The canonical query: `key=value` pairs sorted by key, then value, joined by `&`.
    var canonicalQuery: String {
        queryPairs.map { ($0.key, $0.value) }.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The query to send: the same pairs in their given order, encoded as they are signed.
    var sentQuery: String? {
        guard query != nil else { return nil }
        return queryPairs.map { $0.hasValue ? "\($0.key)=\($0.value)" : $0.key }.joined(separator: "&")
    }

    /// Bytes of `text` with each valid `%XX` replaced by the byte it stands for.
    static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return decoded
    }

    /// AWS's URI encoding: every byte but `A-Z a-z 0-9 - _ . ~` (and `/` when kept) as `%XX`,
    /// upper-case hex.
    static func encode(_ bytes: [UInt8], keepingSlash: Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                encoded.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// RFC 3986's dot-segment removal, and empty segments removed too, as AWS services want:
    /// `//a/./b/../c/` is `/a/c/`.
    static func removingDotSegments(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." {
                _ = segments.popLast()
            } else {
                segments.append(segment)
            }
        }
        let leading = path.hasPrefix("/") ? "/" : ""
        let trailing = path.hasSuffix("/") && !segments.isEmpty ? "/" : ""
        return leading + segments.joined(separator: "/") + trailing
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
