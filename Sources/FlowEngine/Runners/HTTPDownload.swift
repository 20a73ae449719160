import Dispatch
import FlowDSL
import FlowDigest
import FlowHTTP
import FlowTasks
import Foundation

/// One `save-to` download of an `http` step: the final file, the partial file each attempt writes
/// (`.NAME.flow-partial` in the same folder, renamed over NAME at the end so no reader ever sees a
/// half-written file), and the sha256 of the partial file kept as it grows.
///
/// With `resume`, an attempt continues the partial file a dropped attempt or a killed run left,
/// asking for the rest with `Range` and, when the first response named a validator (a strong
/// `ETag`, else `Last-Modified`, kept in `.NAME.flow-partial.validator`), `If-Range`; without it,
/// every attempt starts from the first byte and a failed step deletes the partial file.
final class HTTPDownload: Sendable {
    /// The absolute path of the file the body ends up in.
    let finalPath: String
    /// Where the body is written until it is complete.
    let partialPath: String
    /// The validator of the partial file's resource, for `If-Range`.
    let validatorPath: String
    let resume: Bool
    /// `max-size`: the largest the file may grow, in bytes; nil for no limit.
    let maxSize: Int?
    /// The partial file's sha256, hashed behind curl's writes on a queue of its own.
    private let digest: TrailingFileDigest

    /// Resolves `path` against `folder` and creates the folders it needs.
    init(path: String, folder: String, resume: Bool, maxSize: Int? = nil) throws(DownloadSetupError) {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder, isDirectory: true))
            .standardizedFileURL
        finalPath = url.path
        let parent = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        partialPath = parent.appendingPathComponent(".\(name).flow-partial").path
        digest = TrailingFileDigest(path: partialPath)
        validatorPath = partialPath + ".validator"
        self.resume = resume
        self.maxSize = maxSize
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: finalPath, isDirectory: &isDirectory), isDirectory.boolValue {
            throw DownloadSetupError(message: "'save-to' names a folder, '\(finalPath)'; name the file to write")
        }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw DownloadSetupError(
                message: "cannot create the folder of 'save-to' '\(finalPath)': \(error.localizedDescription)")
        }
    }

    /// What the next attempt sends: the partial file and, when resuming, its size and validator.
    /// Hashes what the partial file already holds first (read with `pread` on `FileReaderThreads`,
    /// not on the queue's thread: see `TrailingFileDigest.restart`), and waits for the last
    /// attempt's bytes to be hashed, so no read-back is in flight when this attempt's response
    /// rewrites the file.
    func prepare(queue: DispatchQueue) -> Future<(target: HTTPSaveTarget, validator: String?)> {
        let size = resume ? Self.size(of: partialPath) : 0
        let validator = size > 0 ? (try? String(contentsOfFile: validatorPath, encoding: .utf8)) : nil
        let digest = digest
        let caughtUp = digest.caughtUp(on: queue).flatMap(on: queue) { _ -> Future<Void> in
            guard digest.finalHex(size: size) == nil else { return Future.succeeded((), on: queue) }
            digest.restart(from: size)
            return digest.caughtUp(on: queue)
        }
        let validatorPath = validatorPath
        let target = HTTPSaveTarget(
            path: partialPath, resumeFrom: size, maxSize: maxSize.map(Int64.init),
            observer: { [digest] at, bytes in digest.wrote(offset: at, count: bytes.count) },
            onStart: { status, headers in
                // A 206 continues the resource the validator already names.
                guard status != 206 else { return }
                try? FileManager.default.removeItem(atPath: validatorPath)
                if let validator = Self.validator(headers) {
                    try? validator.write(toFile: validatorPath, atomically: true, encoding: .utf8)
                }
            })
        return caughtUp.map(on: queue) { _ in (target, validator?.isEmpty == false ? validator : nil) }
    }

    /// Completes once every byte written to the partial file so far is hashed: before `complete`.
    func hashed(queue: DispatchQueue) -> Future<Void> {
        digest.caughtUp(on: queue)
    }

    /// The partial file was refused (`416`): forget it, so the next request starts from zero.
    func restart() {
        digest.restart(from: 0)
        try? FileManager.default.removeItem(atPath: partialPath)
        try? FileManager.default.removeItem(atPath: validatorPath)
    }

    /// Moves the complete partial file to the final name; returns its size and sha256.
    func complete(_ saved: HTTPSavedBody) throws(DownloadSetupError) -> (bytes: Int64, sha256: String) {
        let size = Self.size(of: partialPath)
        let sha256 = digest.finalHex(size: size)
        guard size == saved.size, let sha256 else {
            throw DownloadSetupError(
                message: "the download to '\(finalPath)' holds \(size) bytes, but \(saved.size) were written; "
                    + "did something else write to '\(partialPath)'?")
        }
        guard rename(partialPath, finalPath) == 0 else {
            throw DownloadSetupError(
                message: "cannot move the download to '\(finalPath)': \(String(cString: strerror(errno)))")
        }
        try? FileManager.default.removeItem(atPath: validatorPath)
        return (size, sha256)
    }

    /// After the step failed or was cancelled: without `resume`, the partial file goes; with it,
    /// it stays for the next attempt or run.
    func abandon() {
        guard !resume else { return }
        try? FileManager.default.removeItem(atPath: partialPath)
        try? FileManager.default.removeItem(atPath: validatorPath)
    }

    /// A strong `ETag` (a weak one may not be used in `If-Range`), else `Last-Modified`.
    static func validator(_ headers: HTTPHeaders) -> String? {
        if let etag = headers["ETag"], !etag.hasPrefix("W/"), !etag.isEmpty { return etag }
        return headers["Last-Modified"]
    }

    private static func size(of path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

/// A download that cannot start or finish for a reason on this machine (a folder, a rename).
struct DownloadSetupError: Error, Sendable {
    let message: String
}
