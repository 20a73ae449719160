import CDigest

/// HMAC-SHA256 (RFC 2104 over SHA-256) from the system's libcrypto: the keyed hash AWS Signature
/// Version 4 chains to derive its signing key and sign.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    package static func authenticationCode(key: [UInt8], message: [UInt8]) -> HashDigest {
        var digest = [UInt8](repeating: 0, count: 32)
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                flow_hmac_sha256(
                    keyBytes.baseAddress, keyBytes.count, messageBytes.baseAddress, messageBytes.count, &digest)
            }
        }
        return HashDigest(bytes: digest)
    }
}
