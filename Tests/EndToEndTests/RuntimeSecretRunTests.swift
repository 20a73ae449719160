import FlowSandbox
import Foundation
import Testing

/// An output marked `secret: true`: a value a server returns (a token) is masked from then on like
/// `secrets.*`, in the terminal, the reports and the journal, through the built `flow`.
@Suite struct RuntimeSecretRunTests {
    static let token = "tok-runtime-5a9c1e77"

    @Test func anOutputMarkedSecretIsMaskedEverywhereAfterwards() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-mask-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("flow.yaml").path
        try """
        version: 1
        steps:
          login:
            http: { method: POST, url: \(sandbox.baseURL)/echo, headers: { X-Issued: \(Self.token) } }
            outputs:
              token: { value: "${{ result.json.headers['x-issued'] }}", secret: true }
          show:
            needs: login
            run: echo "token=${{ steps.login.outputs.token }}"
          check:
            needs: show
            http: { url: \(sandbox.baseURL)/reflect/200, headers: { X-Token: "${{ steps.login.outputs.token }}" } }
            expect: { assert: ["contains(result.body, steps.login.outputs.token)", "result.body == 'never'"] }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.json").path
        let state = folder.appendingPathComponent(".flow").path
        let outcome = try await FlowProcess.run([
            "run", path, "--report", "json", report, "--state-dir", state, "--log-format", "json",
        ])
        let output = outcome.stdout + outcome.stderr
        // `check` fails on purpose: its failure shows the response, which holds the token.
        #expect(outcome.exitCode == 1, "\(output)")
        #expect(output.contains("token=***"), "\(output)")
        #expect(output.contains("x-token: ***"), "\(output)")
        #expect(!output.contains(Self.token), "\(output)")
        let reportText = try String(contentsOfFile: report, encoding: .utf8)
        #expect(reportText.contains("x-token: ***"), "\(reportText)")
        #expect(!reportText.contains(Self.token), "\(reportText)")
        // Not a byte of it in the journal's files (the database, its write-ahead log, step logs).
        let files = FileManager.default.enumerator(atPath: state)?.compactMap { $0 as? String } ?? []
        #expect(!files.isEmpty)
        for file in files {
            guard let data = FileManager.default.contents(atPath: state + "/" + file) else { continue }
            #expect(data.range(of: Data(Self.token.utf8)) == nil, "the journal's \(file) holds the token")
        }
    }
}
