import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// What an `http` step needs of the journal: the write-ahead of a request whose repetition is not
/// safe, so that a resumed run knows its outcome is unknown rather than sending it again.
struct HTTPDurability: Sendable {
    let recorder: (any RunRecorder)?
    /// Goes before the step id (`deploy/` in a called file).
    let prefix: String
    /// The run's id in the journal, for `idempotencyKey()`.
    let runID: String?
    /// Unsafe requests sent and not answered yet (see `OpenUnsafeSends`).
    var openSends = OpenUnsafeSends()
    /// A download's session whose path holds a secret value is not recorded.
    var masker = SecretMasker.none

    /// What to wait for before each attempt sends the request: the journal's word that the send is
    /// durable for an unsafe request (never a blocking wait: the attempt continues from the
    /// future), nothing otherwise.
    func writeAhead(step: String, locals: [String: Value], unsafe: Bool) -> @Sendable (DispatchQueue) -> Future<Void> {
        guard unsafe, let recorder else { return { queue in Future.succeeded((), on: queue) } }
        let key = TransferKey(step: prefix + step, item: Self.itemIndex(locals))
        let openSends = openSends
        return { queue in
            recorder.unsafeSend(key.step, item: key.item, at: Date()).map(on: queue) { openSends.sent(key) }
        }
    }

    /// Called with each attempt's outcome: an answer (any status), or an error that shows the
    /// request never left (no connection), settles the send; other errors leave it unknown.
    func attemptEnded(step: String, locals: [String: Value], error: (any Error)?) {
        guard recorder != nil else { return }
        if let error, !(error is UnexpectedStatus) {
            guard let http = error as? HTTPError, http.kind == .connect || http.kind == .dns else { return }
        }
        openSends.settled(TransferKey(step: prefix + step, item: Self.itemIndex(locals)))
    }

    /// The index of the `for-each` item being run, if any.
    static func itemIndex(_ locals: [String: Value]) -> Int? {
        if case .number(let index, _)? = locals[ForEach.indexName] { return Int(index) }
        return nil
    }
}
