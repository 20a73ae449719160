import FlowSandbox
import Foundation
import Testing

/// What `--dry-run` prints is what the run sends: both build requests with one function.
@Suite(.serialized) struct DryRunEqualsSentTests {
    /// For every example, each request in the plan (placeholders standing for runtime values)
    /// matches the request the run sent, as the JSON report records it.
    @Test(arguments: WorkflowExamplesTests.files) func thePlanShowsTheRequestsTheRunSends(_ name: String) async throws {
        let file = WorkflowExamplesTests.folder.appendingPathComponent(name).path
        let environment = ["FLOW_SECRET_PASSWORD": "s3cret"]
        let plan = try await FlowProcess.run(["run", file, "--dry-run"], environment: environment)
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("flow-sent-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try await FlowProcess.run(["run", file, "--report", "json", report.path], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")

        let planned = Self.plannedRequests(plan.stdout)
        let sent = try Self.sentRequests(report)
        #expect(!sent.isEmpty, "\(name) sends requests")
        for (id, request) in sent {
            // Items known only at run time are planned once, as `step[i]/child`.
            let template = id.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[i]", options: .regularExpression)
            let line = try #require(planned[id] ?? planned[template], "the plan lists \(id)")
            #expect(Self.matches(request, plan: line), "\(id): planned \(line), sent \(request)")
        }
    }

    @Test func aQueryIsEncodedInThePlanAsItIsWhenSent() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-query-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        version: 1
        defaults: { http: { base-url: "http://127.0.0.1:9/api/" } }
        steps:
          search: { http: { url: "/search?x=1", query: { q: "a b&c", page: 2 } } }
          absolute: { http: { url: "HTTP://example.invalid/upper" } }
          send: { http: { method: POST, url: form, form: { name: "J. Doe*~" } } }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let plan = try await FlowProcess.run(["run", path, "--dry-run"])
        #expect(plan.exitCode == 0, "\(plan.stderr)")
        #expect(
            plan.stdout.contains("search: GET http://127.0.0.1:9/api/search?x=1&q=a%20b%26c&page=2"), "\(plan.stdout)")
        #expect(plan.stdout.contains("absolute: GET HTTP://example.invalid/upper"), "\(plan.stdout)")
        #expect(plan.stdout.contains("send: POST http://127.0.0.1:9/api/form"), "\(plan.stdout)")
        #expect(plan.stdout.contains("header Content-Type: application/x-www-form-urlencoded"), "\(plan.stdout)")
        #expect(plan.stdout.contains("form name=J.+Doe*%7E"), "\(plan.stdout)")
    }

    /// The JSON body and the headers of the plan are those the server receives: keys sorted, a lone
    /// `${{ }}` typed (a number stays a number; one known only at run time stands bare), newlines
    /// escaped, secrets as `***`.
    @Test func thePlannedBodyAndHeadersAreTheOnesTheServerReceives() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flow-body-\(UUID()).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        version: 1
        inputs:
          count: { type: number, default: 3 }
        defaults: { http: { base-url: "\(sandbox.baseURL)" } }
        steps:
          first:
            http: { url: /echo }
            outputs: { status: "${{ result.status }}" }
          send:
            needs: [first]
            http:
              method: POST
              url: /reflect/200
              headers: { X-Count: "${{ inputs.count }}", X-Token: "${{ secrets.TOKEN }}" }
              json:
                zeta: "${{ inputs.count }}"
                alpha: "line one\\nline two"
                mid: { b: true, a: "${{ steps.first.outputs.status }}" }
                token: "${{ secrets.TOKEN }}"
            outputs: { reflected: "${{ result.body }}" }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let environment = ["FLOW_SECRET_TOKEN": "tok-987654"]
        let plan = try await FlowProcess.run(["run", path, "--dry-run"], environment: environment)
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        let lines = plan.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let body = try #require(lines.first { $0.hasPrefix("json ") }.map { String($0.dropFirst(5)) }, "\(plan.stdout)")
        #expect(
            body
                == #"{"alpha":"line one\nline two","mid":{"a":<steps.first.outputs.status>,"b":true},"token":"***","zeta":3}"#
        )
        let start = try #require(lines.firstIndex { $0.hasPrefix("send: POST") }, "\(plan.stdout)")
        let headers = lines[(start + 1)...].prefix { $0.hasPrefix("header ") }.map { String($0.dropFirst(7)) }

        let report = FileManager.default.temporaryDirectory.appendingPathComponent("flow-body-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try await FlowProcess.run(["run", path, "--report", "json", report.path], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let steps = json?["steps"] as? [[String: Any]] ?? []
        let send = try #require(steps.first { $0["id"] as? String == "send" })
        // The reflected request: the body, the line `POST /reflect/200`, then the headers.
        let reflected = try #require((send["outputs"] as? [String: Any])?["reflected"] as? String)
        let parts = reflected.components(separatedBy: "\nPOST /reflect/200\n")
        #expect(parts.count == 2, "\(reflected)")
        #expect(Self.matches(parts[0], plan: body), "planned \(body), sent \(parts[0])")
        let received = Set(parts.last?.split(separator: "\n").map { $0.lowercased() } ?? [])
        #expect(!headers.isEmpty)
        for header in headers {
            #expect(received.contains(header.lowercased()), "planned \(header), received \(received.sorted())")
        }
    }

    /// `id: METHOD URL` lines of a plan, by step id; the steps of a called file (`uses`) are
    /// indented under their `uses` step, as `deploy/publish: METHOD URL`.
    static func plannedRequests(_ plan: String) -> [String: String] {
        var requests: [String: String] = [:]
        let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
        for line in plan.split(separator: "\n") where line.hasPrefix("  ") {
            // A placeholder may hold spaces (`<join(x, ',')>`): the URL runs up to the annotation
            // the plan sets off with two spaces, `  (needs …)`.
            var request = line.trimmingCharacters(in: .whitespaces)
            if let annotation = request.range(of: "  (") { request = String(request[..<annotation.lowerBound]) }
            let words = request.split(separator: " ", maxSplits: 2)
            guard words.count == 3, words[0].hasSuffix(":"), methods.contains(String(words[1])) else { continue }
            requests[String(words[0].dropLast())] = words[1] + " " + words[2]
        }
        return requests
    }

    /// `METHOD URL` of each step that sent a request, by step id. A step with `repeat` is left out:
    /// the plan shows its first attempt's request, the report its last (the first is compared in
    /// `WorkflowExamplesTests.thePollingExampleShowsItsRepetitions`).
    static func sentRequests(_ report: URL) throws -> [String: String] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let steps = json?["steps"] as? [[String: Any]] ?? []
        var sent: [String: String] = [:]
        for step in steps where step["repetitions"] == nil {
            if let id = step["id"] as? String, let request = step["request"] as? String { sent[id] = request }
        }
        return sent
    }

    /// Whether `request` is `plan` with each `<placeholder>` standing for some text.
    static func matches(_ request: String, plan: String) -> Bool {
        var pattern = "^"
        var rest = Substring(plan)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open])) + ".+?"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        return request.range(of: pattern, options: .regularExpression) != nil
    }
}
