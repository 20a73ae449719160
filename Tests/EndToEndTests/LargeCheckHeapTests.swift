import FlowTestSupport
import Foundation
import Testing

/// `flow validate` of large files reserves mimalloc's memory in 2 MiB pages and checks on a
/// thread of its own (Sources/flow/LargeCheckHeap.swift; BENCHMARKS.md, Validate, "round ten").
/// `MIMALLOC_VERBOSE=1` makes mimalloc say what it reserved, as a user can ask it to; the
/// statistics of `MIMALLOC_SHOW_STATS=1` count the checking thread.
@Suite struct LargeCheckHeapTests {
    /// A workflow of `count` steps, each needing the one before, about 60 bytes a step.
    private static func chain(_ count: Int, broken: Set<Int> = []) -> String {
        let steps = (0..<count).map { index in
            let needs = index == 0 ? "" : " needs: [s\(index - 1)],"
            let work = broken.contains(index) ? "slep: 1s" : "sleep: 0s"
            return "  s\(index): {\(needs) \(work) }\n"
        }
        return "version: 1\nsteps:\n" + steps.joined()
    }

    @Test func aLargeFileIsCheckedOverLargePagesOnAThreadOfItsOwn() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Array(Self.chain(5_000).utf8), to: "large.yaml")

        let outcome = try await FlowProcess.run(
            ["validate", file], environment: ["MIMALLOC_VERBOSE": "1", "MIMALLOC_SHOW_STATS": "1"])

        #expect(outcome.exitCode == 0)
        #expect(outcome.stdout.contains("large.yaml: valid, 5000 steps"))
        // "mimalloc: reserved 6144 KiB memory (in large os pages)": 32 bytes a byte of the file.
        let reserved = outcome.stderr.split(separator: "\n")
            .first { $0.contains("reserved") && $0.contains("KiB memory") }
        #expect(reserved?.contains("in large os pages") == true, "mimalloc said: \(outcome.stderr)")
        let threads = outcome.stderr.split(separator: "\n").first { $0.contains("threads:") }
            .map { $0.split(separator: " ").dropFirst().compactMap { Int($0) } }
        #expect((threads?.dropFirst().first ?? 0) >= 1, "threads line: \(String(describing: threads))")
    }

    /// `flow run` checks a large file the same way, then runs it with ordinary pages.
    @Test func aLargeRunIsCheckedOverLargePagesAndRunsWhole() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Array(Self.chain(5_000).utf8), to: "large.yaml")

        let outcome = try await FlowProcess.run(
            ["run", "--no-journal", "--log-format", "json", file], environment: ["MIMALLOC_VERBOSE": "1"])

        #expect(outcome.exitCode == 0, "stderr: \(outcome.stderr.suffix(2_000))")
        let reserved = outcome.stderr.split(separator: "\n")
            .first { $0.contains("reserved") && $0.contains("KiB memory") }
        #expect(reserved?.contains("in large os pages") == true, "mimalloc said: \(outcome.stderr.prefix(2_000))")
        let summary = (outcome.stdout + outcome.stderr).split(separator: "\n").last { $0.contains("\"summary\"") }
        #expect(summary?.contains("\"succeeded\":5000") == true, "summary: \(String(describing: summary))")
    }

    @Test func aSmallFileIsCheckedAsBefore() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Array(Self.chain(5).utf8), to: "small.yaml")

        let outcome = try await FlowProcess.run(["validate", file], environment: ["MIMALLOC_VERBOSE": "1"])

        #expect(outcome.exitCode == 0)
        #expect(!outcome.stderr.contains("KiB memory"), "mimalloc reserved memory: \(outcome.stderr)")
    }

    /// The checking thread's diagnostics reach the output whole and in order, with exit code 2.
    @Test func aLargeFilesProblemsAreReportedAsFromASmallOne() async throws {
        let folder = try TemporaryFolder()
        let large = try folder.write(Array(Self.chain(5_000, broken: [7, 4_321]).utf8), to: "large.yaml")
        let small = try folder.write(Array(Self.chain(10, broken: [7]).utf8), to: "small.yaml")

        let outcome = try await FlowProcess.run(["validate", large, small])

        #expect(outcome.exitCode == 2)
        let located = outcome.stderr.split(separator: "\n").filter { $0.contains(": error:") }
        // Two errors a broken step (no kind; an unknown key), the large file's first, by line.
        #expect(located.count == 6, "diagnostics: \(outcome.stderr)")
        let places = located.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(
            places == [
                "\(large):10:3:", "\(large):10:22:", "\(large):4324:3:", "\(large):4324:28:",
                "\(small):10:3:", "\(small):10:22:",
            ], "diagnostics: \(outcome.stderr)")
    }
}
