/// Everything the routes share: the event log, the connections, the uploads, the counters.
final class SandboxState: Sendable {
    let events: EventLog
    let connections = ConnectionRegistry()
    let uploads: UploadStore
    let counters = FlakyCounters()
    let sessions = Sessions()
    /// `GET /held/…`'s counts (ItemRoutes).
    let held = HeldCounters()

    init(storageDirectory: String, recordsBodies: Bool = false) {
        events = EventLog(recordsBodies: recordsBodies)
        uploads = UploadStore(directory: storageDirectory)
    }

    /// What `POST /_reset` does: forget events, counters, sessions and uploads.
    func reset() {
        events.reset()
        counters.reset()
        sessions.reset()
        uploads.reset()
        held.reset()
    }
}
