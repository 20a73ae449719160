import FlowSandbox
import Foundation
import Testing

/// The example app in `Examples/FlowKitExample`: built with everything else, it imports FlowKit
/// and nothing else of ours, and runs the seeds' scenario in-process against the sandbox.
@Suite struct FlowKitExampleTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/FlowKitExample")

    @Test func theExampleImportsFlowKitAndNothingElseOfOurs() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".swift")
        }
        #expect(!files.isEmpty)
        var imports: Set<String> = []
        for file in files {
            let text = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").map(String.init)
                // `import X`, `@testable import X`, `internal import X`, `import struct X.Y`.
                guard let position = words.firstIndex(of: "import"), position + 1 < words.count else { continue }
                guard
                    words[..<position].allSatisfy({
                        $0.hasPrefix("@") || ["public", "internal", "package"].contains($0)
                    })
                else { continue }
                let module = words[words.count > position + 2 ? position + 2 : position + 1]
                imports.insert(String(module.split(separator: ".")[0]))
            }
        }
        #expect(imports.contains("FlowKit"))
        #expect(imports.subtracting(["FlowKit", "Foundation"]).isEmpty, "\(imports.sorted())")
    }

    @Test func theExampleRunsTheScenarioAgainstTheSandbox() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        // The example binary sits next to flow's in the build folder.
        let outcome = try await FlowProcess.run(
            ["--api", sandbox.baseURL], shell: #"exec "${0%/*}/FlowKitExample" "$@""#)
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        for step in ["login", "users", "reports", "prepare", "import", "upload", "notify", "mirror"] {
            #expect(lines.contains("\(step): succeeded"), "\(outcome.stdout)")
        }
        #expect(lines.contains("upload [##########] 100% 350 KiB of 350 KiB"), "\(outcome.stdout)")
        #expect(lines.contains("mirror won: us"))
        // The host step ran between the joined requests and the import, with their results.
        #expect(lines.contains { $0.hasPrefix("prepare-import: ") && $0.hasSuffix(" reports") }, "\(outcome.stdout)")
        #expect(lines.last == "run succeeded")
        // Four chunks of at most 100 KiB reached the server, after the joined requests.
        let events = sandbox.events()
        let chunks = events.filter { $0.method == "PATCH" && $0.path.hasPrefix("/uploads/tus/") }
        #expect(chunks.count == 4)
        #expect(chunks.allSatisfy { $0.bytesReceived <= 100 * 1024 })
        let users = try #require(events.first { $0.path == "/api/users" })
        let reports = try #require(events.first { $0.path == "/api/reports" })
        let importing = try #require(events.first { $0.path == "/import" })
        #expect(importing.startedAt >= max(users.endedAt ?? .infinity, reports.endedAt ?? .infinity))
    }
}
