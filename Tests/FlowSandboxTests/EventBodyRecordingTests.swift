import FlowSandbox
import Foundation
import Testing

/// What `/_events` keeps of a request besides its line: the position headers always, the body
/// (text and SHA-256) only when the sandbox records bodies.
@Suite struct EventBodyRecordingTests {
    @Test func positionHeadersAlwaysBodiesOnlyWhenRecorded() async throws {
        for records in [true, false] {
            let sandbox = try await Sandbox.start(SandboxConfiguration(recordsBodies: records))
            defer { Task { await sandbox.stop() } }
            let chunk = Data((0..<1000).map { UInt8($0 % 251) })
            _ = try await HTTP.send(
                "PUT", sandbox.baseURL + "/uploads/cr/recorded", headers: ["Content-Range": "bytes 0-999/3000"],
                body: chunk)
            _ = try await HTTP.send("POST", sandbox.baseURL + "/echo", body: Data(#"{"name":"ünï"}"#.utf8))
            _ = try await HTTP.send("GET", sandbox.baseURL + "/health")
            let events = try await waitForEvents(sandbox) { $0.count == 3 && $0.allSatisfy { $0.endedAt != nil } }
            #expect(events[0].headers == ["Content-Range": "bytes 0-999/3000"])
            #expect(events[1].headers.isEmpty)
            if records {
                #expect(events[0].bodySHA256 == (try await Digests.hex("sha256", of: chunk)))
                #expect(events[0].body == nil, "not UTF-8")
                #expect(events[1].body == #"{"name":"ünï"}"#)
                #expect(events[1].bodySHA256 != nil)
            } else {
                #expect(events.allSatisfy { $0.body == nil && $0.bodySHA256 == nil })
            }
            #expect(events[2].body == nil && events[2].bodySHA256 == nil, "no body, nothing recorded")
            let listed = try await HTTP.send("GET", sandbox.baseURL + "/_events")
            #expect(listed.text.contains(#""headers":{"Content-Range":"bytes 0-999/3000"}"#), "\(listed.text)")
        }
    }
}
