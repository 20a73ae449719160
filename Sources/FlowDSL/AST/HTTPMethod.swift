/// The method of a request or an upload: one of the seven common ones, or any other method token
/// (RFC 9110 §9.1: `token`, such as WebDAV's `PROPFIND`, `LOCK` or a cache's `PURGE`), sent as
/// written.
package struct HTTPMethod: RawRepresentable, Sendable, Hashable {
    /// The method's name as sent.
    package let rawValue: String

    /// The method named `rawValue`, or nil when it is not an RFC 9110 token (empty, or holding a
    /// space, a separator such as `(` or `:`, or a byte outside printable ASCII).
    package init?(rawValue: String) {
        guard Self.isToken(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// GET (the default).
    package static let get = HTTPMethod(known: "GET")
    /// HEAD.
    package static let head = HTTPMethod(known: "HEAD")
    /// POST.
    package static let post = HTTPMethod(known: "POST")
    /// PUT.
    package static let put = HTTPMethod(known: "PUT")
    /// PATCH.
    package static let patch = HTTPMethod(known: "PATCH")
    /// DELETE.
    package static let delete = HTTPMethod(known: "DELETE")
    /// OPTIONS.
    package static let options = HTTPMethod(known: "OPTIONS")

    /// The seven common methods, which `method:` accepts in any letter case.
    package static let allCases: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    private init(known: String) { rawValue = known }

    /// Whether repeating the request is safe, so failures are retried by default: the methods RFC
    /// 9110 §9.2.2 calls idempotent. Any other method (POST, PATCH, or one flow does not know,
    /// such as `LOCK`) is not sent again unless it carries an `Idempotency-Key` or `retry.on` says so.
    package var isIdempotent: Bool { Self.idempotent.contains(rawValue) }

    private static let idempotent: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Whether `text` is an RFC 9110 token: one or more of ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
