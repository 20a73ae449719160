import Foundation
import Testing

@testable import FlowDSL

/// A large file is checked on two cores: its steps are parsed on a thread of their own while the
/// YAML is read (`StepStream`), and the expression check runs beside the others (issue 32). A
/// user must see exactly what the one-core check gives: the same messages in the same order,
/// the same steps and the same computed settings.
@Suite struct TwoCoreCheckTests {
    /// The file checked both ways gives the same result; the two-core result is returned.
    @discardableResult
    static func expectSameBothWays(
        _ bytes: [UInt8], file: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CheckResult {
        let one = WorkflowLoader.check(bytes: bytes, file: file, twoCores: false)
        let two = WorkflowLoader.check(bytes: bytes, file: file, twoCores: true)
        #expect(two.diagnostics == one.diagnostics, "\(file)", sourceLocation: sourceLocation)
        #expect(two.renderedDiagnostics() == one.renderedDiagnostics(), "\(file)", sourceLocation: sourceLocation)
        #expect(two.workflow?.steps == one.workflow?.steps, "\(file)", sourceLocation: sourceLocation)
        #expect(
            two.workflow?.settingExpressions == one.workflow?.settingExpressions, "\(file)",
            sourceLocation: sourceLocation)
        return two
    }

    @Test func everyFixtureChecksTheSameOnTwoCores() throws {
        for name in FixtureTests.cases {
            let bytes = try Data(contentsOf: FixtureTests.folder.appendingPathComponent("\(name).yaml"))
            Self.expectSameBothWays(Array(bytes), file: "\(name).yaml")
        }
    }

    @Test func everyExampleWorkflowChecksTheSameOnTwoCores() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("workflows")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(names.count >= 10)
        for name in names {
            let path = folder.appendingPathComponent(name).path
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let result = Self.expectSameBothWays(Array(bytes), file: path)
            #expect(!result.hasErrors, "\(name)")
        }
    }

    /// Mangled files stop the YAML reading at every kind of place, some in the middle of the
    /// steps the second thread is parsing.
    @Test(arguments: 0..<4)
    func mangledWorkflowsCheckTheSameOnTwoCores(seed: Int) {
        var generator = SplitMix64(state: UInt64(seed) &+ 100)
        let original = Array(WorkflowModelTests.example.utf8)
        for _ in 0..<40 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = MutationTests.alphabet.randomElement(using: &generator) ?? 0x20
                case 1: bytes.remove(at: index)
                default: bytes.insert(MutationTests.alphabet.randomElement(using: &generator) ?? 0x20, at: index)
                }
            }
            Self.expectSameBothWays(bytes, file: "mangled.yaml")
        }
    }

    /// A file over the size at which two cores are used by default, with a problem of each
    /// kind among thousands of good steps: at the top level, in steps, in a group's children,
    /// in expressions, and a `${{ }}` setting.
    static func largeWorkflow(steps count: Int, collectionKey: Bool = false) -> String {
        var lines = [
            "version: 1",
            "concurrency: ${{ inputs.width }}",
            "inputs:",
            "  width: { type: number, default: 4 }",
            "defaults:",
            "  timeout: 5 minutes",
            "unknown-top: 1",
            "steps:",
        ]
        for index in 0..<count {
            switch index % 500 {
            case 7: lines.append("  s\(index): { sleep: 1 fortnight }")
            case 8: lines.append("  s\(index): { run: [echo, hi], colour: blue }")
            case 9: lines.append("  s\(index): { run: [echo, \"${{ steps.nowhere.outputs.x }}\"] }")
            case 10: lines.append("  s\(index): { needs: s\(index + 1), sleep: 0s }")
            case 11: lines.append("  s\(index): { needs: s\(index - 1), sleep: 0s, timeout: \"${{ inputs.width }}s\" }")
            case 12:
                lines.append("  s\(index):")
                lines.append("    parallel: all")
                lines.append("    steps:")
                lines.append("      c\(index)a: { sleep: 0s }")
                lines.append("      c\(index)b: { sleep: forever }")
            case 13 where collectionKey: lines.append("  ? [s\(index)]\n  : { sleep: 0s }")
            case 14:
                // A `for-each` group whose children read its item, one of them a name it lacks.
                lines.append("  s\(index):")
                lines.append("    parallel: all")
                lines.append("    for-each: ${{ [1, 2] }}")
                lines.append("    as: n")
                lines.append("    steps:")
                lines.append("      c\(index)a: { run: [echo, \"${{ n }}\"] }")
                lines.append("      c\(index)b: { run: [echo, \"${{ item }}\"] }")
            case 15: lines.append("  s\(index): { run: [echo], outputs: { kept: \"${{ result.stdout }}\", lost: x } }")
            case 16:
                lines.append(
                    "  s\(index): { needs: s\(index - 1), run: [echo, \"${{ steps.s\(index - 1).outputs.kept }}\"] }")
            default: lines.append("  s\(index): { needs: s\(max(0, index - 1)), run: [echo, \"${{ inputs.width }}\"] }")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aLargeFileWithProblemsChecksTheSameOnTwoCores() {
        let bytes = Array(Self.largeWorkflow(steps: 3_000).utf8)
        #expect(bytes.count >= StepStream.threshold)
        let result = Self.expectSameBothWays(bytes, file: "large.yaml")
        // By default, a file this large is checked on two cores: the same again.
        let byDefault = WorkflowLoader.check(bytes: bytes, file: "large.yaml")
        #expect(byDefault.diagnostics == result.diagnostics)
        #expect(result.diagnostics.count >= 20)
        #expect(result.renderedDiagnostics().contains("unknown key 'colour' in step 's508'"))
        #expect(result.renderedDiagnostics().contains("unknown key 'unknown-top' in the workflow"))
        #expect(result.renderedDiagnostics().contains("output 'lost' of step 's2515' is never read"))
        #expect(
            result.renderedDiagnostics().contains("'item' is only available in a 'for-each' step, and step 'c2514b'"))
        #expect(!result.renderedDiagnostics().contains("'n' is only available"))
    }

    @Test func aLargeValidFileGivesTheSameStepsAndSettings() {
        let text =
            (["version: 1", "inputs:", "  t: { default: 2s }", "steps:"]
            + (0..<3_000).map { "  s\($0): { needs: s\(max(0, $0 - 1)), timeout: \"${{ inputs.t }}\", sleep: 0s }" })
            .joined(separator: "\n").replacingOccurrences(of: "s0: { needs: s0, ", with: "s0: { ")
        let result = Self.expectSameBothWays(Array(text.utf8), file: "valid.yaml")
        #expect(result.workflow?.steps.count == 3_000)
        #expect(result.workflow?.settingExpressions.count == 3_000)
    }

    /// A key written as a collection in `steps:` is reported before any step's problem by the
    /// one-core parse; the stream gives up and the steps are parsed from the tree instead.
    @Test func aCollectionKeyAmongTheStepsChecksTheSame() {
        let bytes = Array(Self.largeWorkflow(steps: 3_000, collectionKey: true).utf8)
        let result = Self.expectSameBothWays(bytes, file: "keys.yaml")
        #expect(result.renderedDiagnostics().contains("keys in 'steps' must be plain names"))
    }

    /// The stream itself: the composer hands each top-level step over as it is built, and the
    /// thread gives back every step in file order (nested groups' children stay in their group).
    @Test func theStreamParsesEveryTopLevelStepInOrder() throws {
        let text = Self.largeWorkflow(steps: 1_000)
        let stream = try #require(StepStream.start(file: "s.yaml", wanted: true))
        guard case .document = YAMLComposer.compose(Array(text.utf8), stream: stream) else {
            Issue.record("the file should compose")
            _ = stream.finish(keep: false)
            return
        }
        let parsed = try #require(stream.finish(keep: true))
        #expect(parsed.steps.map(\.id) == (0..<1_000).map { "s\($0)" })
        #expect(parsed.diagnostics.contains { $0.message.contains("unknown key 'colour'") })
    }

    /// A file the composer refuses: the stream is finished without its steps, its thread ended.
    @Test func aRefusedFileLeavesTheStreamEmpty() throws {
        let text = Self.largeWorkflow(steps: 1_000) + "  s0: { sleep: 0s }\n"
        let stream = try #require(StepStream.start(file: "d.yaml", wanted: true))
        guard case .problems = YAMLComposer.compose(Array(text.utf8), stream: stream) else {
            Issue.record("a duplicate step id should be refused")
            _ = stream.finish(keep: false)
            return
        }
        #expect(stream.finish(keep: false) == nil)
    }
}
