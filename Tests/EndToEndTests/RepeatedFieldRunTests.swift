import FlowSandbox
import Foundation
import Testing

/// A header, a form field and a multipart part repeated by a list value, through the built `flow`
/// against the sandbox's `/request` (every header field as it arrived) and `/multipart` (each part).
@Suite struct RepeatedFieldRunTests {
    @Test func aListValueRepeatsAHeaderAFormFieldAndAMultipartPart() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-repeat-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "first".write(to: folder.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try "second!".write(to: folder.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("flow.yaml").path
        try """
        version: 1
        defaults:
          http: { headers: { X-Tag: default, X-Keep: [k1, k2] } }
        steps:
          headers:
            http:
              method: POST
              url: \(sandbox.baseURL)/request
              headers: { X-Tag: [one, "${{ 'two' }}"] }
              form: { tag: [a, b], x: y }
            expect:
              assert:
                - join(result.json.headers['x-tag'], '|') == 'one|two'
                - join(result.json.headers['x-keep'], '|') == 'k1|k2'
                - result.json.hex == '7461673d61267461673d6226783d79'
          parts:
            http:
              method: POST
              url: \(sandbox.baseURL)/multipart
              multipart:
                note: [n1, { value: n2, content-type: text/markdown }]
                files: [{ file: a.txt }, { file: b.txt, filename: renamed.txt }]
            expect:
              assert:
                - result.json.parts[0].name == 'note' && result.json.parts[1].name == 'note'
                - result.json.parts[1].contentType == 'text/markdown'
                - result.json.parts[2].filename == 'a.txt' && result.json.parts[2].size == 5
                - result.json.parts[3].filename == 'renamed.txt' && result.json.parts[3].size == 7
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let dry = try await FlowProcess.run(["run", "--dry-run", path])
        #expect(dry.stdout.contains("header X-Tag: one\n      header X-Tag: two\n"), "\(dry.stdout)")
        #expect(dry.stdout.contains("form tag=a&tag=b&x=y"), "\(dry.stdout)")
    }
}
