import FlowDSL
import FlowTasks

/// A `RunRecorder` that can tell when an upload's session is on disk. An S3 multipart upload's id
/// is recorded this way before its first part is sent: a run killed after that always finds it
/// on `--resume`, so parts already on the server are never sent again.
package protocol DurableTransferRecorder: RunRecorder {
    /// Records `session` like `transfer`; the future completes once it is durable (or fails when
    /// it cannot be written).
    func transferDurably(_ session: TransferSession) -> Future<Void>
}

extension UploadDurability {
    /// Records this step's (and item's) session and waits for it to be on disk when the recorder
    /// can (see `DurableTransferRecorder`), else records it and goes on; nil without a journal or
    /// when `url` or the file's identity holds a secret.
    func durableRecord(step: String, locals: [String: Value], target: UploadTarget) -> (
        @Sendable (String, Int64) -> Future<Void>
    )? {
        guard let recorder else { return nil }
        let key = TransferKey(step: prefix + step, item: HTTPDurability.itemIndex(locals))
        let (kind, identity, masker) = (target.uploadProtocol.rawValue, target.file.identityText, masker)
        return { url, confirmed in
            let session = TransferSession(
                step: key.step, item: key.item, kind: kind, target: url, bytesConfirmed: confirmed,
                fileIdentity: identity)
            guard masker(url) == url, masker(identity) == identity else { return .succeeded((), on: .global()) }
            guard let durable = recorder as? any DurableTransferRecorder else {
                recorder.transfer(session)
                return .succeeded((), on: .global())
            }
            return durable.transferDurably(session)
        }
    }
}
