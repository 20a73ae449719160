import FlowSandbox
import Foundation
import Testing

/// `flow run --only ID --outputs-from/--outputs-to`: running a workflow one top-level step at a
/// time, in dependency order, chaining the files, gives what the whole run gives.
@Suite(.serialized) struct OnlyStepRunTests {
    final class Scratch {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-only-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        func write(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            return path(name)
        }
    }

    /// Needs, outputs, a for-each, a failure, a step skipped after it, a `failure()` clean-up
    /// reading outputs from another branch, an `if` on outputs that holds and one that does not.
    static func workflow(baseURL: String) -> String {
        """
        version: 1
        defaults:
          http: { base-url: "\(baseURL)" }
        steps:
          list:
            http: { url: /items/3 }
            outputs: { names: "${{ result.json.items }}" }
          fetch:
            needs: list
            for-each: ${{ steps.list.outputs.names }}
            http: { url: "/echo?name=${{ item }}&position=${{ index }}" }
            outputs: { name: "${{ result.json.query.name }}" }
          broken:
            http: { url: /status/500 }
          after-broken:
            needs: broken
            http: { url: "/echo?never=1" }
          cleanup:
            needs: [after-broken, fetch]
            if: ${{ failure() }}
            http: { url: "/echo?cleanup=${{ join(steps.fetch.outputs.name, ',') }}" }
          report:
            needs: [list, fetch]
            if: ${{ length(steps.fetch.outputs.name) == 3 }}
            http: { method: POST, url: /echo, json: { first: "${{ steps.fetch.outputs.name[0] }}" } }
            outputs: { first: "${{ result.json.json.first }}" }
          never:
            needs: list
            if: ${{ steps.list.outputs.names[0] == 'nope' }}
            http: { url: "/echo?never=2" }
        """
    }

    static let order = ["list", "fetch", "broken", "after-broken", "cleanup", "report", "never"]
    static let needs: [String: [String]] = [
        "fetch": ["list"], "after-broken": ["broken"], "cleanup": ["after-broken", "fetch"],
        "report": ["list", "fetch"],
        "never": ["list"],
    ]

    /// What the server saw, as `METHOD path` lines in a stable order.
    static func requests(_ sandbox: Sandbox) -> [String] {
        sandbox.events().map { "\($0.method) \($0.path)" }.sorted()
    }

    @Test func theSplitRunGivesTheWholeRunsRequestsStatesAndOutputs() async throws {
        let scratch = try Scratch()
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let file = try scratch.write("split.yaml", Self.workflow(baseURL: sandbox.baseURL))

        let whole = try await FlowProcess.run(["run", file, "--report", "json", scratch.path("whole.json")])
        #expect(whole.exitCode == 1, "\(whole.stdout)\(whole.stderr)")
        let wholeRequests = Self.requests(sandbox)
        let report = try JSONSerialization.jsonObject(
            with: Data(contentsOf: scratch.folder.appendingPathComponent("whole.json")))
        let wholeSteps = ((report as? [String: Any])?["steps"] as? [[String: Any]]) ?? []
        var wholeStates: [String: String] = [:]
        var wholeOutputs: [String: NSDictionary] = [:]
        for step in wholeSteps {
            guard let id = step["id"] as? String else { continue }
            wholeStates[id] = step["state"] as? String
            wholeOutputs[id] = (step["outputs"] as? NSDictionary) ?? [:]
        }
        #expect(wholeStates["cleanup"] == "succeeded" && wholeStates["never"] == "skipped", "\(wholeStates)")

        sandbox.reset()
        var splitStates: [String: String] = [:]
        var splitOutputs: [String: NSDictionary] = [:]
        for id in Self.order {
            var arguments = ["run", file, "--only", id, "--outputs-to", scratch.path("\(id).json")]
            for need in Self.needs[id] ?? [] { arguments += ["--outputs-from", scratch.path("\(need).json")] }
            let outcome = try await FlowProcess.run(arguments)
            // Only the failing step's own process fails; a skipped step's succeeds.
            #expect(outcome.exitCode == (id == "broken" ? 1 : 0), "\(id): \(outcome.stdout)\(outcome.stderr)")
            let written = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: scratch.path("\(id).json"))))
            let entry = (((written as? [String: Any])?["steps"] as? [String: Any])?[id] as? [String: Any]) ?? [:]
            splitStates[id] = entry["status"] as? String
            splitOutputs[id] = (entry["outputs"] as? NSDictionary) ?? [:]
        }
        #expect(splitStates == wholeStates)
        #expect(splitOutputs == wholeOutputs)
        #expect(Self.requests(sandbox) == wholeRequests)
        #expect(wholeRequests.contains("POST /echo"), "\(wholeRequests)")
    }

    @Test func anUnknownStepANestedOneAndAMissingNeedAreClearErrors() async throws {
        let scratch = try Scratch()
        let file = try scratch.write(
            "errors.yaml",
            """
            version: 1
            steps:
              first: { run: "echo one" }
              both:
                needs: first
                parallel: all
                steps:
                  inner: { run: "echo inner" }
            """)
        let unknown = try await FlowProcess.run(["run", file, "--only", "frist"])
        #expect(unknown.exitCode == 2)
        #expect(
            unknown.stderr.contains("has no top-level step 'frist'; its top-level steps are first, both"),
            "\(unknown.stderr)")
        let nested = try await FlowProcess.run(["run", file, "--only", "inner"])
        #expect(nested.exitCode == 2)
        #expect(nested.stderr.contains("step 'inner' is inside group 'both'"), "\(nested.stderr)")
        let missing = try await FlowProcess.run(["run", file, "--only", "both"])
        #expect(missing.exitCode == 2)
        #expect(
            missing.stderr.contains("step 'both' needs 'first', and no --outputs-from file records it"),
            "\(missing.stderr)")
        let notJSON = try scratch.write("bad.json", "{")
        let bad = try await FlowProcess.run(["run", file, "--only", "both", "--outputs-from", notJSON])
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("--outputs-from \(notJSON): not JSON"), "\(bad.stderr)")

        // The group runs with all it contains once its need's file is given.
        let first = try await FlowProcess.run([
            "run", file, "--only", "first", "--outputs-to", scratch.path("first.json"),
        ])
        #expect(first.exitCode == 0, "\(first.stderr)")
        let group = try await FlowProcess.run([
            "run", file, "--only", "both", "--outputs-from", scratch.path("first.json"),
        ])
        #expect(group.exitCode == 0, "\(group.stderr)")
        #expect(group.stdout.contains("[inner] | inner"), "\(group.stdout)")
        #expect(!group.stdout.contains("[first]"), "\(group.stdout)")
    }
}
