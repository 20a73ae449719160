import FlowDSL
import FlowTasks

/// A resumable `save-to` download's session in the journal (a transfer of kind `download`): the
/// file it ends up in, the bytes the partial file holds, and the partial file's path. `flow runs
/// show` lists it; a resumed run sends the `GET` again (safe) and continues the partial file with
/// `Range` (see `HTTPDownload`), so the journal's count is for people, not for the resume.
///
/// The partial file grows on the client's transfer thread: the count is recorded at most every
/// `interval` bytes there (journal writes are batched and never block), and always at the start of
/// an attempt and at the end.
final class DownloadRecording: Sendable {
    /// Bytes between two records while the file grows.
    static let interval: Int64 = 256 * 1024

    private let recorder: any RunRecorder
    private let key: TransferKey
    private let target: String
    private let partial: String
    /// The count last recorded. Written from the transfer thread and the step queue; the box
    /// makes that safe.
    private let recorded = LockedBox<Int64>(-1)

    init(recorder: any RunRecorder, key: TransferKey, target: String, partial: String) {
        self.recorder = recorder
        self.key = key
        self.target = target
        self.partial = partial
    }

    /// Records `bytes` when `force`, or when it moved `interval` past the last count recorded.
    func record(_ bytes: Int64, force: Bool = false) {
        let due = recorded.withLock { last in
            guard force || bytes >= last + Self.interval || bytes < last else { return false }
            last = bytes
            return true
        }
        guard due else { return }
        recorder.transfer(
            TransferSession(
                step: key.step, item: key.item, kind: "download", target: target, bytesConfirmed: bytes,
                fileIdentity: partial))
    }
}

extension HTTPDurability {
    /// The recording of `download`'s session; nil without a journal, for a download without
    /// `resume` (it starts over anyway), or when a path holds a secret value.
    func downloadRecording(step: String, locals: [String: Value], download: HTTPDownload) -> DownloadRecording? {
        guard let recorder, download.resume, masker(download.finalPath) == download.finalPath,
            masker(download.partialPath) == download.partialPath
        else { return nil }
        return DownloadRecording(
            recorder: recorder, key: TransferKey(step: prefix + step, item: Self.itemIndex(locals)),
            target: download.finalPath, partial: download.partialPath)
    }
}
