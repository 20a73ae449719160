import ArgumentParser
import Dispatch
import FlowSandbox
import Foundation

/// `flow sandbox`: serves the local HTTP API that the demo, the examples and the tests run against.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serve the local HTTP API that the demo, the example workflows and the tests run against.",
        discussion: """
            Prints 'listening on http://HOST:PORT' as its first line, then serves until SIGINT or SIGTERM. \
            The endpoints are listed in README.md under "flow sandbox — endpoints".
            """
    )

    // FLOW_SANDBOX_HOST: an exported Argo workflow's service task listens on every address.
    @Option(help: "The address to listen on (default: $FLOW_SANDBOX_HOST, else 127.0.0.1).")
    var host = ProcessInfo.processInfo.environment["FLOW_SANDBOX_HOST"] ?? "127.0.0.1"

    @Option(help: "The TCP port; 0 picks a free one.")
    var port = 8089

    @Option(help: "Keep uploads in this folder instead of a temporary one removed on exit.")
    var storage: String?

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be from 0 to 65535, got \(port)")
        }
    }

    func run() async throws {
        // The default actions are ignored first so a signal arriving during start-up is not fatal.
        let (stop, stopContinuation) = AsyncStream<Int32>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopContinuation.yield(number) }
            source.resume()
            return source
        }
        let sandbox = try await Sandbox.start(.init(host: host, port: port, storageDirectory: storage))
        // Written straight to the file descriptor: a pipe reader sees the line at once, no buffering.
        FileHandle.standardOutput.write(Data("listening on \(sandbox.baseURL)\n".utf8))
        for await _ in stop { break }
        await sandbox.stop()
        for source in sources { source.cancel() }
    }
}
