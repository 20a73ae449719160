import FlowKit
import Foundation
import Testing

/// A folder of its own for one test's workflow and files, removed at the end.
struct TestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "flowkit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `bytes` bytes of text at `name`; its path.
    func file(_ name: String, bytes: Int) throws -> String {
        let file = path + "/" + name
        try Data(repeating: UInt8(ascii: "a"), count: bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// Every event of a run, read until it ends.
func allEvents(of run: FlowRun) async -> [FlowEvent] {
    var events: [FlowEvent] = []
    for await event in run.events { events.append(event) }
    return events
}
