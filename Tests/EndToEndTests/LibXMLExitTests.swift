import Foundation
import Testing

/// `flow` exits without libxml2's exit-time cleanup, which frees libxml2's global state while
/// another thread may still be parsing a document for `xpath()` or `htmlXPath()` (a lost race's
/// step, Ctrl-C, a FlowKit app quitting): in a C stress program one such exit in 100 crashed.
///
/// The crash needs a thread inside libxml2 at the instant of exit, too rare to wait for; what makes
/// it possible is seen every time: whether exit runs the cleanup. Tests/Peers/xml_cleanup_spy.c,
/// preloaded, records which library deletes a thread key, as libxml2's cleanup does.
@Suite struct LibXMLExitTests {
    @Test func aRunThatEvaluatesXPathExitsWithoutLibXMLsCleanup() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-libxml-exit-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let peers = OpenSSLExitTests.root.appendingPathComponent("Tests/Peers")
        let spy = folder.appendingPathComponent("spy.so").path
        let control = folder.appendingPathComponent("control").path
        for arguments in [
            ["-shared", "-fPIC", "-o", spy, peers.appendingPathComponent("xml_cleanup_spy.c").path, "-ldl"],
            [
                "-I/usr/include/libxml2", "-o", control, peers.appendingPathComponent("xml_cleanup_control.c").path,
                "-lxml2",
            ],
        ] {
            let built = try await FlowProcess.runTool(URL(fileURLWithPath: "/usr/bin/cc"), arguments)
            try #require(built.status == 0, "\(built.output)")
        }
        let record = folder.appendingPathComponent("cleanups").path
        let environment = ["LD_PRELOAD": spy, "XML_CLEANUP_SPY": record]

        // The spy sees a process whose exit does clean libxml2 up: a plain C program using it.
        let controlRun = try await FlowProcess.runTool(
            URL(fileURLWithPath: "/usr/bin/env"),
            environment.map { "\($0.key)=\($0.value)" }.sorted() + [control])
        try #require(controlRun.status == 0, "\(controlRun.output)")
        try #require(Self.libxmlCleanups(record) == 1, "the spy did not see libxml2's own cleanup")
        try FileManager.default.removeItem(atPath: record)

        let file = folder.appendingPathComponent("flow.yaml").path
        try """
        version: 1
        steps:
          parse:
            run: printf '<a><b>1</b><b>2</b></a>'
            outputs: { count: "${{ xpath(result.stdout, 'count(//b)') }}" }
          page:
            needs: parse
            run: printf '<ul><li>%s</ul>' "${{ steps.parse.outputs.count }}"
            outputs: { item: "${{ htmlXPath(result.stdout, 'string(//li)') }}" }
          show:
            needs: page
            run: echo "items ${{ steps.page.outputs.item }}"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try await FlowProcess.run(["run", file, "--no-journal"], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("items 2"), "\(run.stdout)")
        #expect(Self.libxmlCleanups(record) == 0, "flow's exit ran libxml2's cleanup")
    }

    /// How many thread keys libxml2 deleted, by the spy's record in `record`.
    static func libxmlCleanups(_ record: String) -> Int {
        let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("libxml2") }.count
    }
}
