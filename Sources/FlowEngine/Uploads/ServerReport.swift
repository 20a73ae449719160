import FlowDSL
import FlowHTTP

/// What a server says about the stored file in its final answer, checked against what was sent.
///
/// Read from a JSON body, if any: `size` (a number, or a numeric string as Google Cloud Storage
/// sends it), `sha256` in hex (as `flow sandbox` answers), `md5Hash` and `crc32c` in base64 (GCS). Servers
/// that report nothing are taken at their word.
enum ServerReport {
    /// The file's own digests, to compare with what the server reports.
    struct Digests: Sendable {
        var sha256: String
        /// base64, as GCS's `md5Hash`.
        var md5Base64: String?
        /// base64 of the big-endian checksum, as GCS's `crc32c`.
        var crc32cBase64: String?
    }

    /// A message when the server's size or a hash differs from the file's; nil when they match.
    static func mismatch(
        in response: HTTPResponse, size: Int64, sha256: String, md5Base64: String? = nil, crc32cBase64: String? = nil
    ) -> String? {
        mismatch(
            in: response, size: size, digests: Digests(sha256: sha256, md5Base64: md5Base64, crc32cBase64: crc32cBase64)
        )
    }

    static func mismatch(in response: HTTPResponse, size: Int64, digests: Digests) -> String? {
        guard let members = members(of: response) else { return nil }
        switch members["size"] {
        case .number(let reported, _)? where Int64(exactly: reported) != size:
            return "the server stored \(reported.formatted) bytes, but the file has \(size)"
        case .string(let text)? where Int64(text.trimmingCharacters(in: .whitespaces)).map({ $0 != size }) ?? false:
            return "the server stored \(text) bytes, but the file has \(size)"
        default:
            break
        }
        if case .string(let reported)? = members["sha256"], reported.lowercased() != digests.sha256 {
            return "the server stored a file with sha256 \(reported), but the file sent has sha256 \(digests.sha256)"
        }
        if case .string(let reported)? = members["md5Hash"], let md5 = digests.md5Base64, reported != md5 {
            return "the server stored a file with md5Hash \(reported), but the file sent has md5Hash \(md5)"
        }
        if case .string(let reported)? = members["crc32c"], let crc = digests.crc32cBase64, reported != crc {
            return "the server stored a file with crc32c \(reported), but the file sent has crc32c \(crc)"
        }
        return nil
    }

    /// Whether the answer reports a hash of the stored file (`sha256` or `md5Hash`), so that a
    /// match proves the server holds this file.
    static func reportsHash(_ response: HTTPResponse) -> Bool {
        guard let members = members(of: response) else { return false }
        if case .string? = members["sha256"] { return true }
        if case .string? = members["md5Hash"] { return true }
        return false
    }

    /// Whether the answer reports GCS's `md5Hash` or `crc32c`, to compare with the file's.
    static func reportsGCSDigests(_ response: HTTPResponse) -> Bool {
        guard let members = members(of: response) else { return false }
        if case .string? = members["md5Hash"] { return true }
        if case .string? = members["crc32c"] { return true }
        return false
    }

    private static func members(of response: HTTPResponse) -> [String: Value]? {
        guard let json = try? Value(jsonText: response.text), case .object(let members) = json else { return nil }
        return members
    }
}

extension Double {
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
