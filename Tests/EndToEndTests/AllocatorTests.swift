import FlowTestSupport
import Foundation
import Testing

/// The `flow` executable allocates with mimalloc, not glibc's malloc (Package.swift's `CAllocator`;
/// why in README.md, "Dependencies"): `MIMALLOC_SHOW_STATS=1` makes mimalloc print its statistics
/// when the process exits, which a user can do too. Without the link nothing is printed.
@Suite struct AllocatorTests {
    /// `flow validate` checks the file on a Dispatch worker thread, whose allocations are the ones
    /// glibc's per-thread arenas made slow: mimalloc's statistics count that thread beside the main one.
    @Test func flowValidateAllocatesWithMimallocOnItsWorkerThreadToo() async throws {
        let folder = try TemporaryFolder()
        let steps = (0..<50).map { "  s\($0):\n    sleep: 0s\n" }.joined()
        let file = try folder.write(Array(("version: 1\nsteps:\n" + steps).utf8), to: "steps.yaml")

        let outcome = try await FlowProcess.run(["validate", file], environment: ["MIMALLOC_SHOW_STATS": "1"])

        #expect(outcome.exitCode == 0)
        #expect(outcome.stderr.contains("heap stats:"), "mimalloc printed no statistics: \(outcome.stderr)")
        // `   threads:      1          2          1          1   …`: peak, total, freed, current.
        let threads = outcome.stderr.split(separator: "\n").first { $0.contains("threads:") }
            .map { $0.split(separator: " ").dropFirst().compactMap { Int($0) } }
        #expect((threads?.dropFirst().first ?? 0) >= 2, "threads line: \(String(describing: threads))")
    }
}
