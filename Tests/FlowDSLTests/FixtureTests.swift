import FlowDSL
import Foundation
import Testing

/// Each `Fixtures/<case>.yaml` must produce exactly the diagnostics in `<case>.expected`.
@Suite struct FixtureTests {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    static var cases: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyFixtureHasItsExpectation() {
        #expect(Self.cases.count >= 30)
        for name in Self.cases {
            let expected = Self.folder.appendingPathComponent("\(name).expected").path
            #expect(FileManager.default.fileExists(atPath: expected), "missing \(name).expected")
        }
    }

    @Test(arguments: FixtureTests.cases)
    func rendersExactly(_ name: String) throws {
        let yaml = try Data(contentsOf: Self.folder.appendingPathComponent("\(name).yaml"))
        let expected = try String(
            contentsOf: Self.folder.appendingPathComponent("\(name).expected"),
            encoding: .utf8
        )
        let result = WorkflowLoader.check(bytes: Array(yaml), file: "\(name).yaml")
        #expect(result.renderedDiagnostics() == expected)
        #expect(result.hasErrors == (name != "warnings"))
    }
}
