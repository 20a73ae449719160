import Foundation
import Testing

/// `flow validate` of a large file asks for transparent huge pages on the heap it fills, where the
/// system's THP mode is `madvise` (this machine's): a 10,000-step file's check took 8,800 page
/// faults in 4 KiB pages, about 1,900 since (BENCHMARKS.md, Validate, round nine). Where the mode
/// is `never` or `always`, flow leaves the heap as it is. What the heap was made of is read at
/// exit by Tests/Peers/heap_smaps_spy.c, preloaded.
@Suite struct HugePageHeapTests {
    /// The repository's root, for `Tests/Peers`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The system's THP mode, the bracketed word of "always [madvise] never".
    static var mode: String {
        let text = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        guard let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]") else { return "" }
        return String(text[text.index(after: open)..<close])
    }

    /// A workflow of `count` steps, each one line (about 60 bytes).
    static func workflow(steps count: Int) -> String {
        var text = "version: 1\nsteps:\n"
        for index in 0..<count {
            text += "  s\(index): { http: { url: \"http://127.0.0.1:1/\(index)\" }, expect: { status: 2xx } }\n"
        }
        return text
    }

    @Test func aLargeFilesHeapIsAdvisedForHugePagesASmallOnesIsNot() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-huge-heap-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spy = folder.appendingPathComponent("spy.so").path
        let built = try await FlowProcess.runTool(
            URL(fileURLWithPath: "/usr/bin/cc"),
            ["-shared", "-fPIC", "-o", spy, Self.root.appendingPathComponent("Tests/Peers/heap_smaps_spy.c").path])
        try #require(built.status == 0, "\(built.output)")
        let record = folder.appendingPathComponent("heap").path
        let environment = ["LD_PRELOAD": spy, "HEAP_SMAPS_SPY": record]

        // 5,000 steps: about 330 KiB, a heap of some 10 MiB.
        let large = folder.appendingPathComponent("large.yaml").path
        try Self.workflow(steps: 5000).write(toFile: large, atomically: true, encoding: .utf8)
        let checked = try await FlowProcess.run(["validate", large], environment: environment)
        #expect(checked.exitCode == 0, "\(checked.stderr)")
        let heap = try String(contentsOfFile: record, encoding: .utf8)
        let advised = heap.split(separator: "\n").contains { $0.hasPrefix("VmFlags:") && $0.contains(" hg") }
        // Whether the kernel then found free 2 MiB pages (`AnonHugePages`) depends on the
        // machine's memory, not on flow: only the advice is checked.
        if Self.mode == "madvise" {
            #expect(advised, "no [heap] mapping of flow's was advised for huge pages:\n\(heap)")
        } else {
            #expect(!advised, "THP mode '\(Self.mode)': flow advised its heap all the same:\n\(heap)")
        }

        // Two steps: nothing to gain, nothing asked.
        let small = folder.appendingPathComponent("small.yaml").path
        try Self.workflow(steps: 2).write(toFile: small, atomically: true, encoding: .utf8)
        let smallChecked = try await FlowProcess.run(["validate", small], environment: environment)
        #expect(smallChecked.exitCode == 0, "\(smallChecked.stderr)")
        let smallHeap = try String(contentsOfFile: record, encoding: .utf8)
        #expect(!smallHeap.contains(" hg"), "a two-step file's heap was advised:\n\(smallHeap)")
    }
}
