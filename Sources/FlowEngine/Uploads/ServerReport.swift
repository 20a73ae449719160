import FlowDSL
import FlowHTTP

/// What a server says about the stored file in its final answer, checked against what was sent.
///
/// Read from a JSON body with `size` and/or `sha256` members (as `flow sandbox` answers), if any;
/// servers that report nothing are taken at their word.
enum ServerReport {
    /// A message when the server's size or sha256 differs from the file's; nil when they match.
    static func mismatch(in response: HTTPResponse, size: Int64, sha256: String) -> String? {
        guard let json = try? Value(jsonText: response.text), case .object(let members) = json else { return nil }
        if case .number(let reported)? = members["size"], Int64(exactly: reported) != size {
            return "the server stored \(reported.formatted) bytes, but the file has \(size)"
        }
        if case .string(let reported)? = members["sha256"], reported.lowercased() != sha256 {
            return "the server stored a file with sha256 \(reported), but the file sent has sha256 \(sha256)"
        }
        return nil
    }
}

extension Double {
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}
