import Dispatch
import FlowEngine
import FlowTasks

/// Where `transferDurably`'s futures complete (the journal calls back on its own thread).
private let flushed = DispatchQueue(label: "flow.journal.transfer-flushed")

extension JournalRecorder: DurableTransferRecorder {
    func transferDurably(_ session: TransferSession) -> Future<Void> {
        transfer(session)
        let promise = Promise<Void>(on: flushed)
        journal.flush { error in
            if let error {
                _ = promise.fail(DurabilityError(message: "the journal could not record the upload: \(error)"))
            } else {
                _ = promise.succeed(())
            }
        }
        return promise.future
    }
}
