import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A named pipe with no writer given as a workflow is refused at once by `validate`, `run` and
/// `uses:`, rather than waited on for ever.
@Suite struct SpecialFileTests {
    /// Writes a valid workflow into `fifo` if some reader is waiting on it after a few seconds, so
    /// that a flow that blocks on the pipe finishes (and the test fails) instead of hanging.
    private static func unblockLater(_ fifo: String) {
        Thread {
            Thread.sleep(forTimeInterval: 5)
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            guard descriptor >= 0 else { return }
            let text = "version: 1\nsteps:\n  a: { run: \"true\" }\n"
            _ = text.withCString { write(descriptor, $0, strlen($0)) }
            close(descriptor)
        }.start()
    }

    @Test func aNamedPipeIsRefusedByValidateRunAndUses() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let fifo = scratch.folder.appendingPathComponent("pipe.yaml").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let caller = try scratch.write("caller.yaml", "version: 1\nsteps:\n  call: { uses: ./pipe.yaml }\n")
        for arguments in [["validate", fifo], ["run", fifo], ["validate", caller]] {
            Self.unblockLater(fifo)
            let outcome = try await FlowProcess.run(arguments)
            #expect(outcome.exitCode == 2, "\(arguments) \(outcome.stdout)\(outcome.stderr)")
            #expect(
                (outcome.stdout + outcome.stderr).contains("pipe.yaml' is a named pipe, not a workflow file"),
                "\(arguments) \(outcome.stdout)\(outcome.stderr)")
        }
    }
}
