import FlowDSL
import Foundation
import Testing

/// Inputs that crashed (or could crash) the parsers, kept under `Fixtures/fuzz/` so they stay
/// fixed: the fuzzers' finds (see scripts/fuzz.sh) and hand-made hostile files. Each must come
/// back as diagnostics or a syntax error, never as a crash.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static func inputs(prefix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func everyKindOfInputIsKept() {
        #expect(Self.inputs(prefix: "workflow-").count >= 4)
        #expect(Self.inputs(prefix: "expression-").count >= 3)
    }

    @Test(arguments: inputs(prefix: "workflow-"))
    func workflowInputGetsDiagnostics(name: String) throws {
        let result = WorkflowLoader.check(bytes: try Self.bytes(name), file: name)
        #expect(result.workflow == nil)
        #expect(result.hasErrors)
        let rendered = result.renderedDiagnostics()
        #expect(rendered.hasPrefix(name), "\(rendered.prefix(300))")
        #expect(rendered.contains("error: "))
    }

    @Test(arguments: inputs(prefix: "expression-"))
    func expressionInputGetsASyntaxError(name: String) throws {
        let text = String(decoding: try Self.bytes(name), as: UTF8.self)
        let error = #expect(throws: ExpressionSyntaxError.self) { try Template.parse(text) }
        if let error {
            #expect(error.offset >= 0 && error.offset <= text.count)
            #expect(!error.message.isEmpty)
        }
    }
}
