import FlowDSL
import Foundation

/// What an `upload` step needs of the journal: to record its session (where it lives on the
/// server, bytes confirmed, the file's identity), and an interrupted run's session to continue.
struct UploadDurability: Sendable {
    var recorder: (any RunRecorder)?
    /// Goes before the step id (`deploy/` in a called file).
    var prefix = ""
    /// The interrupted run's sessions (see `RunOptions.priorTransfers`).
    var prior: [TransferKey: TransferSession] = [:]
    /// A session whose URL holds a secret (a signed URL's token) is not recorded: never a secret
    /// value in the journal.
    var masker = SecretMasker.none

    /// The session to continue for this step (and item), if the interrupted run left one of the
    /// same protocol and URL, and the closure that records this one's progress.
    func session(step: String, locals: [String: Value], target: UploadTarget) -> (
        TransferSession?, (@Sendable (String, Int64) -> Void)?
    ) {
        let key = TransferKey(step: prefix + step, item: HTTPDurability.itemIndex(locals))
        let kind = target.uploadProtocol.rawValue
        var adopted = prior[key]
        if let session = adopted, session.kind != kind || (kind == "content-range" && session.target != target.url) {
            adopted = nil
        }
        // An S3 session is the object's URL with its uploadId: another object's is not continued.
        if let session = adopted, kind == "s3", S3MultipartSession.uploadID(of: session.target, url: target.url) == nil
        {
            adopted = nil
        }
        guard let recorder else { return (adopted, nil) }
        let identity = target.file.identityText
        let masker = masker
        return (
            adopted,
            { url, confirmed in
                guard masker(url) == url, masker(identity) == identity else { return }
                recorder.transfer(
                    TransferSession(
                        step: key.step, item: key.item, kind: kind, target: url, bytesConfirmed: confirmed,
                        fileIdentity: identity))
            }
        )
    }
}
