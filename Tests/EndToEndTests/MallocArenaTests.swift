import Foundation
import Testing

/// `flow` allocates from glibc's main arena on every thread (`MallocArena`): no arena of its own
/// for each Dispatch worker, which glibc grows one `mprotect` call a page (issue 32).
@Suite struct MallocArenaTests {
    /// The start address and the end of each mapping of `/proc/PID/maps`, with its permissions.
    private static func mappings(_ maps: String) -> [(start: UInt64, end: UInt64, permissions: Substring)] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            let range = fields.first?.split(separator: "-") ?? []
            guard fields.count >= 2, range.count == 2, let start = UInt64(range[0], radix: 16),
                let end = UInt64(range[1], radix: 16)
            else { return nil }
            return (start, end, fields[1])
        }
    }

    /// glibc's thread arenas: 64 MiB reserved at a 64 MiB boundary, the used part readable and
    /// writable, the rest `---p` right after it (a thread's stack has its guard page below it).
    private static func threadArenas(_ maps: String) -> Int {
        let size: UInt64 = 64 << 20
        let all = mappings(maps)
        return zip(all, all.dropFirst()).filter { used, reserved in
            used.permissions == "rw-p" && reserved.permissions == "---p" && used.start % size == 0
                && used.end == reserved.start && reserved.end - used.start == size
        }.count
    }

    @Test func theRunsThreadsMakeNoArenasOfTheirOwn() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let maps = scratch.folder.appendingPathComponent("maps.txt").path
        // Forty waits keep the run's worker threads allocating before `look` reads flow's map.
        let waits = (0..<40).map { "  w\($0): { sleep: 0s }" }.joined(separator: "\n")
        let file = try scratch.write(
            "arenas.yaml",
            """
            version: 1
            steps:
              look:
                needs: [\((0..<40).map { "w\($0)" }.joined(separator: ", "))]
                run: cat /proc/$PPID/maps > '\(maps)'
            \(waits)
            """)
        let run = try await FlowProcess.run(["run", file, "--no-journal"])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let text = try String(contentsOfFile: maps, encoding: .utf8)
        // The map read is flow's own (the command's parent), not a shell's.
        #expect(text.contains(FlowProcess.binary.resolvingSymlinksInPath().path), "\(text)")
        #expect(Self.threadArenas(text) == 0, "\(text)")
    }
}
