import FlowHTTP
import Foundation

/// What a tus server says of itself in its answer to `OPTIONS`: its versions, extensions, checksum
/// algorithms and largest upload. flow asks while it creates the upload, not before (see
/// `TusDriver.prepare`), and uses the answer for later chunks' checksums, for termination, and to
/// explain a refused creation.
struct TusCapabilities: Sendable {
    /// `Tus-Version`, when sent.
    let versions: [String]?
    /// `Tus-Extension`, when sent (nil: the server did not say).
    let extensions: [String]?
    /// The checksum algorithm to send `Upload-Checksum` with, when the server offers one flow has.
    let checksum: ChecksumAlgorithm?
    /// `Tus-Max-Size`, when sent.
    let maxSize: Int64?

    /// The capabilities a 2xx answer to `OPTIONS` states; nil for any other answer (a server that
    /// does not answer OPTIONS still gets the core protocol and creation).
    init?(_ response: HTTPResponse) {
        guard (200...299).contains(response.status) else { return nil }
        versions = response.headers["Tus-Version"].map(Self.list)
        extensions = response.headers["Tus-Extension"].map(Self.list)
        let offersChecksum = extensions?.contains("checksum") ?? false
        checksum =
            offersChecksum
            ? ChecksumAlgorithm.preferred(in: Self.list(response.headers["Tus-Checksum-Algorithm"])) : nil
        maxSize = response.headers["Tus-Max-Size"].flatMap { Int64($0) }
    }

    /// Whether the server says it offers `name` (`termination`, …).
    func offers(_ name: String) -> Bool {
        extensions?.contains(name) ?? false
    }

    /// Why the server cannot take `target`'s upload, if these capabilities say: another protocol
    /// version, no creation extension, a file larger than its `Tus-Max-Size`.
    func refusal(of target: UploadTarget, version: String) -> UploadProtocolError? {
        if let versions, !versions.contains(version) {
            return UploadProtocolError(
                description: "the tus server at \(target.url) speaks tus \(versions.joined(separator: ",")); "
                    + "flow speaks \(version)")
        }
        if let extensions, !extensions.contains("creation") {
            return UploadProtocolError(
                description: "the tus server at \(target.url) does not offer the creation extension "
                    + "(Tus-Extension: \(extensions.joined(separator: ","))), so flow cannot start an upload")
        }
        if let maxSize, target.file.size > maxSize {
            return UploadProtocolError(
                description: "'\(target.file.path)' has \(target.file.size) bytes, more than the tus server's "
                    + "Tus-Max-Size of \(maxSize)")
        }
        return nil
    }

    private static func list(_ header: String?) -> [String] {
        (header ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }
}
