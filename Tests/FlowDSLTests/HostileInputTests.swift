import FlowDSL
import Foundation
import Testing

/// Bad and hostile files end in one clear error, never a crash, a hang or a stack overflow.
@Suite struct HostileInputTests {
    private func onlyError(_ result: CheckResult) -> Diagnostic? {
        #expect(result.hasErrors)
        #expect(result.workflow == nil)
        #expect(result.diagnostics.count == 1)
        return result.diagnostics.first
    }

    @Test func nonUTF8IsRefused() {
        let result = WorkflowLoader.check(bytes: [0x76, 0x3A, 0x20, 0xFF, 0xFE, 0x0A], file: "latin.yaml")
        #expect(onlyError(result)?.message == "the file is not UTF-8 text")
    }

    @Test func binaryIsRefused() {
        let result = WorkflowLoader.check(bytes: [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00], file: "flow")
        #expect(onlyError(result)?.message.contains("binary") == true)
    }

    @Test func emptyAndBlankFilesAreRefused() {
        for text in ["", "\n\n  \n"] {
            #expect(onlyError(WorkflowLoader.check(source: text, file: "e.yaml"))?.message == "the file is empty")
        }
    }

    @Test func commentsOnlyHaveNoDocument() {
        let result = WorkflowLoader.check(source: "# just a comment\n", file: "c.yaml")
        #expect(onlyError(result)?.message == "the file has no YAML document")
    }

    @Test func aDirectoryIsRefused() {
        let result = WorkflowLoader.load(path: NSTemporaryDirectory())
        #expect(onlyError(result)?.message.contains("is a directory") == true)
    }

    @Test func aMissingPathIsRefused() {
        let path = NSTemporaryDirectory() + "/flow-no-such-\(UUID().uuidString).yaml"
        let result = WorkflowLoader.load(path: path)
        #expect(onlyError(result)?.message == "cannot read '\(path)': no such file")
    }

    @Test func aHugeFileIsRefusedBeforeParsing() {
        var bytes = Array("version: 1\nsteps:\n  a: { sleep: 1s }\n#".utf8)
        bytes += [UInt8](repeating: 0x61, count: InputLimits.maximumFileSize)
        let error = onlyError(WorkflowLoader.check(bytes: bytes, file: "big.yaml"))
        #expect(error?.message.contains("at most 64MiB") == true)
    }

    @Test func aHugeFileOnDiskIsRefusedByItsSize() throws {
        let path = NSTemporaryDirectory() + "/flow-huge-\(UUID().uuidString).yaml"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(InputLimits.maximumFileSize + 1))
        try handle.close()
        #expect(onlyError(WorkflowLoader.load(path: path))?.message.contains("at most 64MiB") == true)
    }

    @Test func tooManyValuesAreRefusedBeforeComposing() {
        var text = "version: 1\nx: ["
        text += String(repeating: "1,", count: InputLimits.maximumNodes)
        text += "1]\n"
        let error = onlyError(WorkflowLoader.check(source: text, file: "wide.yaml"))
        #expect(error?.message == "the YAML holds more than 4000000 values")
        #expect(error?.location?.line == 2)
    }

    @Test func veryDeepFlowNestingIsRefused() {
        let depth = 200_000
        let text = "version: 1\nx: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = onlyError(WorkflowLoader.check(source: text, file: "deep.yaml"))
        #expect(error?.message == "the YAML is nested more than 64 levels deep")
        #expect(error?.location?.line == 2)
    }

    @Test func veryDeepBlockNestingIsRefused() {
        let text =
            "version: 1\nx:\n"
            + (1...100).map { String(repeating: "  ", count: $0) + "k\($0):" }.joined(separator: "\n")
        let error = onlyError(WorkflowLoader.check(source: text + " 1\n", file: "deep.yaml"))
        #expect(error?.message == "the YAML is nested more than 64 levels deep")
    }

    @Test func billionLaughsIsRefusedQuickly() {
        var lines = ["version: 1", "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
        for level in 1...9 {
            let alias = "*l\(level - 1)"
            lines.append("l\(level): &l\(level) [" + Array(repeating: alias, count: 10).joined(separator: ", ") + "]")
        }
        lines.append("steps: { a: { sleep: 1s } }")
        let clock = ContinuousClock()
        var result: CheckResult?
        let elapsed = clock.measure {
            result = WorkflowLoader.check(source: lines.joined(separator: "\n"), file: "lol.yaml")
        }
        let error = result.flatMap { onlyError($0) }
        #expect(error?.message == "aliases would expand to more than 10000 nodes")
        #expect(error?.location?.line == 5)
        #expect(elapsed < .seconds(2))
    }

    @Test func aliasAsMappingKeyBombIsRefused() {
        // Yams hashes mapping keys to find duplicates: an aliased collection as a key would be
        // hashed in full, so the bomb must be stopped before composing.
        var lines = ["version: 1", "a: &a [x, x, x, x, x, x, x, x, x, x]"]
        for (index, name) in ["b", "c", "d", "e", "f"].enumerated() {
            let previous = index == 0 ? "a" : ["b", "c", "d", "e"][index - 1]
            lines.append(
                "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]")
        }
        lines.append("? *f\n: 1")
        let error = onlyError(WorkflowLoader.check(source: lines.joined(separator: "\n"), file: "keys.yaml"))
        #expect(error?.message == "aliases would expand to more than 10000 nodes")
    }

    @Test func undefinedAliasIsLocated() {
        let error = onlyError(WorkflowLoader.check(source: "version: 1\nsteps: *nothing\n", file: "a.yaml"))
        #expect(error?.message.contains("refers to no anchor") == true)
        #expect(error?.location == SourceLocation(file: "a.yaml", line: 2, column: 8))
    }

    @Test func smallAliasesAreFine() {
        let result = WorkflowLoader.check(
            source: """
                version: 1
                steps:
                  a: { http: { url: http://127.0.0.1:8089/a, headers: &h { Accept: application/json } } }
                  b: { http: { url: http://127.0.0.1:8089/b, headers: *h } }
                """,
            file: "ok.yaml"
        )
        #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    }

    @Test func multipleDocumentsAreRefused() {
        let result = WorkflowLoader.check(source: "version: 1\n---\nversion: 1\n", file: "two.yaml")
        #expect(onlyError(result)?.location?.line != nil)
    }

    @Test(arguments: ["\u{1}", "[", "{a: [}", "key: \"unterminated", "\t- x", "a: b: c", "%YAML 9.9\n---\nx"])
    func garbageNeverCrashes(_ text: String) {
        let result = WorkflowLoader.check(source: text, file: "g.yaml")
        #expect(result.hasErrors)
    }
}
