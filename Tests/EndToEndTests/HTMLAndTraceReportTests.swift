import Foundation
import Testing

/// `--report html FILE` read back by a real browser (headless Chromium loads the file from disk
/// and dumps the DOM it built; a screenshot is taken), and `--report trace FILE` checked against
/// Chrome's trace-event format, from one run with a `Retry-After` retry, a race, an upload, a
/// time-out and a failure that prints a secret.
@Suite struct HTMLAndTraceReportTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    private static let secret = "hunter2-report-secret"

    private static let workflow = """
        version: 1
        name: report-demo
        services:
          sandbox:
            run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
            ready: { http: "${{ services.sandbox.url }}/health" }
        defaults:
          http: { base-url: "${{ services.sandbox.url }}" }
        env:
          FILE: /tmp/flow-html-upload-${{ services.sandbox.port }}.bin
        steps:
          limited:
            http: { url: "/flaky/html-${{ services.sandbox.port }}?fail=1&status=429&retry-after=1" }
            retry: { attempts: 3, delay: 10ms }
            outputs: { attempt: "${{ result.json.attempt }}" }
          race:
            parallel: any
            steps:
              fast: { http: { url: "/mirror/fast?ms=50" } }
              slow: { http: { url: "/mirror/slow?ms=5000" } }
          fan:
            for-each: [a, b, c]
            http: { url: "/mirror/${{ item }}?ms=20" }
          make-file:
            run: head -c 300000 /dev/zero > "$FILE"
          upload:
            needs: make-file
            upload: { file: "${{ env.FILE }}", url: /uploads/cr/html, protocol: content-range, chunk-size: 50KiB }
          nap:
            sleep: 5s
            timeout: 200ms
            continue-on-error: true
          leak:
            needs: limited
            run: echo "password ${{ secrets.PASSWORD }} <b>" >&2; exit 4
        """

    /// Runs `command` with a time limit (coreutils `timeout`), returning its exit code and output.
    private func run(_ command: [String], seconds: Int) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", String(seconds)] + command
        let pipe = Pipe()
        let errors = FileHandle(forWritingAtPath: "/dev/null")
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// Headless Chromium with its own profile folder, as `make test` installs it.
    private func chromium(_ arguments: [String], profile: URL) -> [String] {
        [
            "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=\(profile.path)",
        ] + arguments
    }

    @Test func theHTMLReportOpensInABrowserAndTheTraceIsChromeTraceJSON() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-html-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("report-demo.yaml").path
        try Self.workflow.write(toFile: file, atomically: true, encoding: .utf8)
        let html = folder.appendingPathComponent("run.html")
        let trace = folder.appendingPathComponent("run.trace.json")
        let outcome = try await FlowProcess.run(
            ["run", file, "--report", "html", html.path, "--report", "trace", trace.path],
            environment: ["FLOW_SECRET_PASSWORD": Self.secret])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")

        let page = try String(contentsOf: html, encoding: .utf8)
        #expect(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"))
        #expect(!page.contains(Self.secret))

        // The browser builds the page from the file alone; read back the DOM it built.
        let profile = folder.appendingPathComponent("chromium-profile")
        let dump = try run(chromium(["--dump-dom", html.absoluteString], profile: profile), seconds: 90)
        #expect(dump.status == 0)
        let dom = dump.output
        #expect(dom.contains(#"<header id="summary" class="outcome-failed">"#), "\(dom.prefix(2000))")
        // A for-each step's items are rows of their own under it.
        for step in [
            "limited", "race", "fast", "slow", "fan", "fan[0]", "fan[1]", "fan[2]", "make-file", "upload", "nap",
            "leak",
        ] {
            #expect(dom.contains(#"data-step="\#(step)" data-state="#), "no timeline row for \(step)")
        }
        // Two attempts of `limited`, the wait between them asked for by the server.
        #expect(
            dom.contains(#"<div class="row succeeded" data-step="limited" data-state="succeeded" data-attempts="2">"#))
        #expect(dom.contains(#"class="seg retry-after""#) && dom.contains("(Retry-After)"))
        #expect(dom.contains(#"class="seg failed-attempt""#))
        // The race's loser is cut off at the winner's moment; the time-out is marked.
        #expect(dom.contains(#"<div class="row cancelled lost" data-step="slow" data-state="cancelled""#))
        #expect(dom.contains("✂ lost to fast"))
        #expect(dom.contains(#"<div class="row failed timed-out" data-step="nap""#))
        // The upload's throughput is drawn.
        #expect(dom.contains(#"<figure class="transfer" data-step="upload">"#) && dom.contains("<polyline"))
        // The failure: its message (the secret masked, markup escaped) and the line of YAML marked.
        #expect(dom.contains(#"<article class="failure" data-step="leak">"#))
        #expect(dom.contains("password *** &lt;b&gt;"))
        #expect(dom.contains(#"<mark class="line" data-line="#) && dom.contains("exit 4</mark>"))
        #expect(!dom.contains(Self.secret))
        #expect(dom.contains(#"<td>limited</td><td>attempt</td><td><code>2</code></td>"#))
        // And a picture of it.
        let picture = folder.appendingPathComponent("run.png")
        _ = try run(
            chromium(
                ["--screenshot=\(picture.path)", "--window-size=1280,900", html.absoluteString], profile: profile),
            seconds: 90)
        let png = try Data(contentsOf: picture)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000)

        try checkTrace(trace)
    }

    /// The trace: Chrome's JSON Object Format, with the rules Perfetto's import relies on.
    private func checkTrace(_ trace: URL) throws {
        let text = try String(contentsOf: trace, encoding: .utf8)
        #expect(!text.contains(Self.secret))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        for event in events {
            #expect(
                event["ph"] is String && event["ts"] is NSNumber && event["pid"] is NSNumber && event["tid"] is NSNumber
            )
        }
        let slices = events.filter { $0["ph"] as? String == "X" }
        for slice in slices { #expect(slice["dur"] is NSNumber) }
        func span(_ event: [String: Any]) -> (tid: Int, start: Int, end: Int) {
            let start = (event["ts"] as? NSNumber)?.intValue ?? 0
            return (
                (event["tid"] as? NSNumber)?.intValue ?? 0, start, start + ((event["dur"] as? NSNumber)?.intValue ?? 0)
            )
        }
        let steps = slices.filter { $0["cat"] as? String == "step" }
        #expect(
            Set(steps.compactMap { $0["name"] as? String }).isSuperset(of: [
                "limited", "fast", "slow", "upload", "leak",
            ]))
        // No two steps overlap on one lane; the race's children run side by side on two lanes.
        for (index, one) in steps.enumerated() {
            for other in steps[(index + 1)...] {
                let (a, b) = (span(one), span(other))
                #expect(a.tid != b.tid || a.end <= b.start || b.end <= a.start, "\(one) overlaps \(other)")
            }
        }
        let fast = try #require(steps.first { $0["name"] as? String == "fast" })
        let slow = try #require(steps.first { $0["name"] as? String == "slow" })
        #expect(span(fast).tid != span(slow).tid)
        // Attempts and waits sit inside their step's slice, on its lane.
        let limited = span(try #require(steps.first { $0["name"] as? String == "limited" }))
        let inner = slices.filter { $0["cat"] as? String != "step" && span($0).tid == limited.tid }
            .filter { span($0).start >= limited.start && span($0).end <= limited.end }
        #expect(inner.filter { ($0["name"] as? String)?.hasPrefix("attempt") == true }.count == 2)
        #expect(inner.contains { $0["name"] as? String == "Retry-After wait" })
        // Bytes of the upload as a counter; the lanes and the process have names.
        let counters = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "bytes upload" }
        #expect(counters.count >= 2)
        #expect(counters.last.flatMap { ($0["args"] as? [String: Any])?["bytes"] as? Int } == 300_000)
        let names = events.filter { $0["ph"] as? String == "M" }.compactMap { $0["name"] as? String }
        #expect(names.contains("process_name") && names.contains("thread_name"))
        // And the whole file against schemas/trace.schema.json, by python-jsonschema.
        let check = try run(
            [
                Self.repository.appendingPathComponent("scripts/schema-check").path,
                Self.repository.appendingPathComponent("schemas/trace.schema.json").path, trace.path,
            ], seconds: 120)
        #expect(check.status == 0, "\(check.output)")
    }
}
