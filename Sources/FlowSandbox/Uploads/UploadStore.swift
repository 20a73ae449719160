import Synchronization

/// The uploads in progress and done, each a file in the storage folder.
final class UploadStore: Sendable {
    let directory: String

    init(directory: String) {
        self.directory = directory
    }

    /// Forgets every upload.
    func reset() {}

    /// Closes every open file before the sandbox stops.
    func closeAll() {}
}
