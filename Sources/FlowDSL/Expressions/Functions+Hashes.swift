internal import FlowDigest

// `sha256(data[, encoding[, input]])`, `sha1(…)`, `md5(…)`: a hash of a value held in memory
// (a response body, a string built by an expression), through FlowDigest's libcrypto hashes.

extension Functions {
    /// The digest of `data`'s UTF-8 bytes (or, with input `'base64'`, of the bytes base64 text
    /// stands for, such as a binary body's `result.base64`), as lowercase hex or, with encoding
    /// `'base64'`, standard padded base64.
    static func hash(_ name: String, _ arguments: [Value]) throws(Failure) -> Value {
        let encoding = arguments.count > 1 ? arguments[1].interpolated : "hex"
        let input = arguments.count > 2 ? arguments[2].interpolated : "text"
        guard encoding == "hex" || encoding == "base64" else {
            throw Failure(message: "\(name)() encodes its digest as 'hex' or 'base64', not '\(Echo.text(encoding))'")
        }
        let bytes: [UInt8]
        switch input {
        case "text": bytes = Array(arguments[0].interpolated.utf8)
        case "base64":
            do {
                bytes = try Base64.decode(arguments[0].interpolated)
            } catch {
                throw Failure(message: "\(name)() got invalid base64 as argument 1: \(error.description)")
            }
        default:
            throw Failure(message: "\(name)() reads its data as 'text' or 'base64', not '\(Echo.text(input))'")
        }
        let digest: HashDigest
        switch name {
        case "sha1": digest = Self.digest(of: bytes, Insecure.SHA1())
        case "md5": digest = Self.digest(of: bytes, Insecure.MD5())
        default: digest = Self.digest(of: bytes, SHA256())
        }
        return .string(encoding == "hex" ? digest.hexString : Base64.encode(digest.bytes))
    }

    private static func digest(of bytes: [UInt8], _ start: some IncrementalHash) -> HashDigest {
        var hash = start
        bytes.withUnsafeBytes { hash.update(bufferPointer: $0) }
        return hash.finalize()
    }
}
