import FlowHTTP
import FlowTestSupport
import Foundation
import Testing

/// curl's loop thread carries its name in the kernel (`/proc/<pid>/task/<tid>/comm`), where crash
/// reports, gdb and `top -H` read it: it used to keep the name of the Dispatch worker that started it.
@Suite struct LoopThreadNameTests {
    @Test func theLoopThreadIsNamedForTheSystem() async throws {
        let client = HTTPClient()
        defer { client.shutdown() }
        var names: [String] = []
        for _ in 0..<200 {
            names = threadNamesOfThisProcess()
            if names.contains("flow.http") { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(names.contains("flow.http"), "threads: \(names)")
    }
}
