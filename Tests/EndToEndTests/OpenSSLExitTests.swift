import FlowSandbox
import Foundation
import Testing

/// `flow` exits without OpenSSL's exit-time cleanup, which freed OpenSSL's global state while
/// other threads could still be in it: a `for-each` of HTTPS requests cancelled by Ctrl-C crashed
/// with SIGSEGV about twice in 100 exits, in curl's loop thread still opening a TLS connection
/// (`SSL_CTX_new_ex`) after the cleanup; one run in 60 of three `flow`s downloading the https
/// example's file at once crashed the same way.
///
/// The crash itself needs a thread to be inside OpenSSL at the instant of exit, too rare to wait
/// for here (SigningAtExitTests makes it common in-process); what makes it possible is seen every
/// time: whether exit runs `OPENSSL_cleanup`. Tests/Peers/openssl_cleanup_spy.c, preloaded,
/// records each call.
@Suite struct OpenSSLExitTests {
    /// The repository's root, for `Tests/Peers`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func aRunThatDownloadsAndHashesExitsWithoutOpenSSLsCleanup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-openssl-exit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spy = folder.appendingPathComponent("spy.so").path
        let built = try await FlowProcess.runTool(
            URL(fileURLWithPath: "/usr/bin/cc"),
            [
                "-shared", "-fPIC", "-o", spy,
                Self.root.appendingPathComponent("Tests/Peers/openssl_cleanup_spy.c").path, "-ldl",
            ])
        try #require(built.status == 0, "\(built.output)")
        let record = folder.appendingPathComponent("cleanups").path
        let environment = ["LD_PRELOAD": spy, "OPENSSL_CLEANUP_SPY": record]

        // The spy sees a process that does clean up at exit: openssl's own command line.
        let control = try await FlowProcess.runTool(
            URL(fileURLWithPath: "/usr/bin/env"),
            environment.map { "\($0.key)=\($0.value)" }.sorted() + ["openssl", "version"])
        try #require(control.status == 0, "\(control.output)")
        try #require(Self.cleanups(record) == 1, "the spy did not see openssl's own cleanup")
        try FileManager.default.removeItem(atPath: record)

        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = folder.appendingPathComponent("flow.yaml").path
        try """
        version: 1
        steps:
          download:
            http:
              url: \(sandbox.baseURL)/downloads/3000000?key=exit
              save-to: \(folder.path)/blob.bin
            outputs: { sha256: "${{ result.sha256 }}" }
          digest:
            needs: download
            run: echo ${{ sha256(steps.download.outputs.sha256) }}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await FlowProcess.run(["run", file, "--no-journal"], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.cleanups(record) == 0, "flow's exit ran OPENSSL_cleanup")
    }

    /// How many times the spy recorded OPENSSL_cleanup in `record`.
    static func cleanups(_ record: String) -> Int {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").count
    }
}
