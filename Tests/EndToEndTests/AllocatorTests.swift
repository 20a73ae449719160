import FlowTestSupport
import Foundation
import Testing

/// The `flow` executable allocates with mimalloc, not glibc's malloc (Package.swift's `CAllocator`;
/// why in README.md, "Dependencies"): `MIMALLOC_SHOW_STATS=1` makes mimalloc print its statistics
/// when the process exits, which a user can do too. Without the link nothing is printed.
@Suite struct AllocatorTests {
    /// `flow run` runs its steps on Dispatch worker threads, whose allocations are the ones glibc's
    /// per-thread arenas made slow: mimalloc's statistics count those threads (the main one is
    /// not counted; `flow validate` works on the main thread alone since round eight).
    @Test func flowRunAllocatesWithMimallocOnItsWorkerThreads() async throws {
        let folder = try TemporaryFolder()
        let steps = (0..<50).map { "  s\($0):\n    sleep: 0s\n" }.joined()
        let file = try folder.write(Array(("version: 1\nsteps:\n" + steps).utf8), to: "steps.yaml")

        let outcome = try await FlowProcess.run(
            ["run", "--no-journal", file], environment: ["MIMALLOC_SHOW_STATS": "1"])

        #expect(outcome.exitCode == 0)
        #expect(outcome.stderr.contains("heap stats:"), "mimalloc printed no statistics: \(outcome.stderr)")
        // `   threads:      5          6          3          3   …`: peak, total, freed, current.
        let threads = outcome.stderr.split(separator: "\n").first { $0.contains("threads:") }
            .map { $0.split(separator: " ").dropFirst().compactMap { Int($0) } }
        #expect((threads?.dropFirst().first ?? 0) >= 1, "threads line: \(String(describing: threads))")
    }
}
