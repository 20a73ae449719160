import FlowSandbox
import Foundation

/// Runs `body` against a fresh sandbox on an ephemeral port and always stops it.
@discardableResult
func withSandbox<T>(_ body: (Sandbox) async throws -> T) async throws -> T {
    let sandbox = try await Sandbox.start()
    do {
        let result = try await body(sandbox)
        await sandbox.stop()
        return result
    } catch {
        await sandbox.stop()
        throw error
    }
}

/// Polls the event log until `condition` holds or five seconds pass. A request's end is recorded
/// once its body is written, which may be after the client has read the whole response.
func waitForEvents(
    _ sandbox: Sandbox,
    until condition: ([SandboxEvent]) -> Bool
) async throws -> [SandboxEvent] {
    let deadline = ContinuousClock.now + .seconds(5)
    while true {
        let events = sandbox.events()
        if condition(events) || ContinuousClock.now > deadline { return events }
        try await Task.sleep(for: .milliseconds(10))
    }
}
