import Foundation
internal import NIOConcurrencyHelpers

/// The uploads in progress and done, each a file in the storage folder.
final class UploadStore: Sendable {
    let directory: String
    private let uploads = NIOLockedValueBox<[String: Upload]>([:])

    init(directory: String) {
        self.directory = directory
    }

    /// Whether `id` is usable as a file name and a path segment.
    static func isValid(id: String) -> Bool {
        !id.isEmpty && id.count <= 128 && id != "." && id != ".."
            && id.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
            }
            && id.allSatisfy(\.isASCII)
    }

    /// The upload of that kind and id, if it exists and was not terminated.
    func find(_ kind: Upload.Kind, _ id: String) -> Upload? {
        uploads.withLockedValue { $0[key(kind, id)] }
    }

    /// The existing upload, or a new empty one of `length` bytes.
    func findOrCreate(_ kind: Upload.Kind, _ id: String, length: Int, metadata: String? = nil, dropAt: Int? = nil)
        throws -> Upload
    {
        try uploads.withLockedValue { uploads in
            if let existing = uploads[key(kind, id)] { return existing }
            let upload = try Upload(
                kind: kind,
                id: id,
                length: length,
                metadata: metadata,
                dropAt: dropAt,
                path: path(kind, id)
            )
            uploads[key(kind, id)] = upload
            return upload
        }
    }

    /// Terminates an upload: forgets it and deletes its file.
    func remove(_ kind: Upload.Kind, _ id: String) -> Bool {
        guard let upload = uploads.withLockedValue({ $0.removeValue(forKey: key(kind, id)) }) else { return false }
        upload.remove()
        try? FileManager.default.removeItem(atPath: path(kind, id))
        return true
    }

    /// Forgets every upload and deletes the files.
    func reset() {
        let all = uploads.withLockedValue { uploads in
            defer { uploads = [:] }
            return Array(uploads.values)
        }
        for upload in all {
            upload.remove()
            try? FileManager.default.removeItem(atPath: path(upload.kind, upload.id))
        }
    }

    /// Drops every upload so their files close before the sandbox stops.
    func closeAll() {
        uploads.withLockedValue { $0 = [:] }
    }

    private func key(_ kind: Upload.Kind, _ id: String) -> String {
        "\(kind.rawValue)/\(id)"
    }

    private func path(_ kind: Upload.Kind, _ id: String) -> String {
        (directory as NSString).appendingPathComponent("\(kind.rawValue)-\(id)")
    }
}
