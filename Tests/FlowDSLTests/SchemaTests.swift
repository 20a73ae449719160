import FlowDSL
import Foundation
import Testing

@Suite(.enabled(if: SchemaScript.isAvailable, "needs python3 with the jsonschema and PyYAML packages"))
struct SchemaTests {
    /// The LANGUAGE.md example, and one file per short form, so each alternative of the schema is
    /// exercised by something that must pass.
    static let validWorkflows: [String] = [
        languageExample,
        """
        version: 1
        steps:
          a: { run: echo a }
          b: { needs: a, run: [echo, b, 2], retry: 3, timeout: 1m30s, env: { N: 1 }, cwd: /tmp }
          c: { needs: [a, b], sleep: 0.5 }
          d:
            http: { method: PUT, url: "http://h/x", body: text, follow-redirects: false }
            expect: { status: [200, 2xx], assert: ["${{ result.status == 200 }}"] }
            retry: { attempts: 2, on: [5xx, 429, timeout] }
          e: { sleep: "1.5", if: "${{ always() }}", continue-on-error: true, outputs: { n: "${{ 1 }}" } }
          f:
            http: { method: post, url: "http://h/f", expect: { status: "201" } }
            retry: { attempts: 2, on: connection-error }
        """,
        """
        version: 1
        inputs:
          wait: { type: number, default: 1 }
        defaults:
          timeout: 5
          http: { base-url: "http://127.0.0.1:1", timeout: 250ms }
        steps:
          race:
            parallel: any
            at-least: 2
            steps:
              one: { upload: { file: a.bin, url: /u, protocol: content-range, chunk-size: 64 KiB, method: PATCH } }
              two: { upload: { file: a.bin, url: /t, protocol: tus, chunk-size: 1048576 }, expect: { status: 204 } }
              nested:
                parallel: all
                fail-fast: false
                steps:
                  deep: { http: { url: /deep, json: [1, { a: b }] } }
        """,
        """
        version: 1
        services:
          sandbox:
            run: ["${{ flow.executable }}", sandbox, --port, "${{ services.sandbox.port }}"]
            ready: { http: "${{ services.sandbox.url }}/health" }
            timeout: 10s
            env: { MODE: test, N: 1 }
          byPort: { run: sleep 60, ready: { port: 8089 } }
          byExpression: { run: sleep 60, ready: { port: "${{ services.byPort.port }}" } }
          plain: { run: sleep 60 }
        steps:
          hello: { http: { url: "${{ services.sandbox.url }}/health" } }
        """,
        """
        version: 1
        inputs:
          n: { type: number, default: 3 }
          wait: { default: 10s }
        concurrency: ${{ inputs.n }}
        defaults:
          timeout: ${{ inputs.wait }}
          retry: { attempts: "${{ inputs.n }}", delay: "${{ inputs.wait }}", max-delay: "${{ inputs.wait }}" }
        steps:
          a: { run: exit 1, retry: "${{ inputs.n }}", timeout: "${{ inputs.wait }}" }
          b: { upload: { file: a.bin, url: "http://h/u", protocol: tus, chunk-size: "${{ inputs.n }}" } }
        """,
    ]

    /// Structurally wrong files and the reason the schema must give for each.
    static let invalidWorkflows: [(yaml: String, error: String)] = [
        (
            "version: 1\nstep: {}\nsteps: { a: { run: x } }\n",
            "Additional properties are not allowed ('step' was unexpected)"
        ),
        ("steps: { a: { run: x } }\n", "'version' is a required property"),
        ("version: 2\nsteps: { a: { run: x } }\n", "2 is not one of [1]"),
        ("version: 1\nconcurrency: many\nsteps: { a: { run: x } }\n", "at /concurrency: 'many' does not match"),
        ("version: 1\nsteps: { a: { run: x, neds: b } }\n", "('neds' was unexpected)"),
        ("version: 1\nsteps: { a: { run: x, http: { url: /x } } }\n", "is valid under each of"),
        ("version: 1\nsteps: { a: { needs: b } }\n", "is not valid under any of the given schemas"),
        ("version: 1\nsteps: { 1a: { run: x } }\n", "does not match"),
        ("version: 1\nsteps: { a: { sleep: 10 parsecs } }\n", "at /steps/a/sleep: '10 parsecs' does not match"),
        ("version: 1\nsteps: { a: { run: x, retry: often } }\n", "at /steps/a/retry: 'often' does not match"),
        ("version: 1\nsteps: { a: { http: { url: /x }, expect: { status: 2xy } } }\n", "'2xy' does not match"),
        ("version: 1\nsteps: { a: { parallel: some, steps: { b: { run: x } } } }\n", "'some' is not one of"),
        (
            "version: 1\nsteps: { g: { parallel: all, steps: { b: { run: x, colour: red } } } }\n",
            "'colour' was unexpected"
        ),
        ("version: 1\nsteps: { a: { http: { url: /x, json: {}, body: x } } }\n", "should not be valid under"),
        ("version: 1\nsteps: { a: { upload: { file: f, url: /u, protocol: ftp } } }\n", "'ftp' is not one of"),
        ("version: 1\nsteps: { a: { run: x, steps: { b: { run: y } } } }\n", "'parallel' is a dependency of 'steps'"),
        (
            "version: 1\nsteps: { a: { sleep: \"${{ inputs.wait }}\" } }\n",
            "at /steps/a/sleep: '${{ inputs.wait }}' does not"
        ),
        (
            "version: 1\nsteps: { a: { http: { url: /x, method: fetch } } }\n",
            "at /steps/a/http/method: 'fetch' does not match"
        ),
        ("version: 1\nsteps: { a: { upload: { file: f, url: /u } } }\n", "'protocol' is a required property"),
        ("version: 1\nsteps: { a: { http: { url: /x, headers: { X-Empty: ~ } } } }\n", "None is not valid under"),
        (
            "version: 1\nsteps: { a: { run: x, retry: { on: [sometimes] } } }\n",
            "at /steps/a/retry/on/0: 'sometimes' does not"
        ),
        (
            "version: 1\nsteps: { g: { parallel: all, at-least: 1, steps: { b: { run: x } } } }\n",
            "'any' was expected"
        ),
        ("version: 1\nservices: { api: { ready: { port: 80 } } }\nsteps: { a: { run: x } }\n", "'run' is a required"),
        (
            "version: 1\nservices: { api: { run: x, ready: { http: /h, port: 80 } } }\nsteps: { a: { run: x } }\n",
            "has too many properties"
        ),
        ("version: 1\nservices: { api: { run: x, ready: {} } }\nsteps: { a: { run: x } }\n", "should be non-empty"),
        ("version: 1\nservices: { api: { run: x, redy: {} } }\nsteps: { a: { run: x } }\n", "('redy' was unexpected)"),
        ("version: 1\nservices: { 1api: { run: x } }\nsteps: { a: { run: x } }\n", "does not match"),
    ]

    @Test func schemaIsValidDraft202012AndAcceptsTheShortForms() throws {
        let errors = try SchemaScript.errors(forYAML: Self.validWorkflows)
        for (yaml, error) in zip(Self.validWorkflows, errors) {
            #expect(error == nil, "\(error ?? "")\n\(yaml)")
            // The schema and `flow validate` must agree, or editors flag files that run (or the reverse).
            let check = WorkflowLoader.check(source: yaml, file: "case.yaml")
            #expect(!check.hasErrors, "flow validate disagrees:\n\(check.renderedDiagnostics())")
        }
    }

    @Test func schemaRejectsStructuralMistakes() throws {
        let errors = try SchemaScript.errors(forYAML: Self.invalidWorkflows.map(\.yaml))
        for ((yaml, expected), error) in zip(Self.invalidWorkflows, errors) {
            #expect(error?.contains(expected) == true, "expected '\(expected)', got \(error ?? "no error")\n\(yaml)")
            #expect(WorkflowLoader.check(source: yaml, file: "case.yaml").hasErrors, "flow validate accepts:\n\(yaml)")
        }
    }

    @Test func schemaAcceptsEveryWorkflowThatValidates() throws {
        // Every example and fixture `flow validate` accepts; invalid fixtures are the checker's tests.
        let examples = RepositoryFiles.candidateWorkflows().filter {
            !WorkflowLoader.check(source: $0.text, file: $0.origin).hasErrors
        }
        try #require(!examples.isEmpty, "no valid workflows found under \(RepositoryFiles.root.path)")
        let errors = try SchemaScript.errors(forYAML: examples.map(\.text))
        for (example, error) in zip(examples, errors) {
            #expect(error == nil, "\(example.origin): \(error ?? "")")
        }
    }

    /// Each closed key set of the schema, with a workflow that puts a key `KEY` in that place.
    static let keyPlaces: [(path: [String], workflow: String)] = [
        (["properties"], "version: 1\nKEY: ~\nsteps: { a: { run: x } }\n"),
        (["properties", "defaults", "properties"], "version: 1\ndefaults: { KEY: ~ }\nsteps: { a: { run: x } }\n"),
        (
            ["$defs", "httpDefaults", "properties"],
            "version: 1\ndefaults: { http: { KEY: ~ } }\nsteps: { a: { run: x } }\n"
        ),
        (["$defs", "input", "properties"], "version: 1\ninputs: { i: { KEY: ~ } }\nsteps: { a: { run: x } }\n"),
        (["$defs", "step", "properties"], "version: 1\nsteps: { a: { run: x, KEY: ~ } }\n"),
        (["$defs", "http", "properties"], "version: 1\nsteps: { a: { http: { url: /x, KEY: ~ } } }\n"),
        (
            ["$defs", "upload", "properties"],
            "version: 1\nsteps: { a: { upload: { file: f, url: /u, protocol: tus, KEY: ~ } } }\n"
        ),
        (["$defs", "expect", "properties"], "version: 1\nsteps: { a: { http: { url: /x }, expect: { KEY: ~ } } }\n"),
        (["$defs", "retry", "anyOf", "1", "properties"], "version: 1\nsteps: { a: { run: x, retry: { KEY: ~ } } }\n"),
        (
            ["$defs", "service", "properties"],
            "version: 1\nservices: { s: { run: x, KEY: ~ } }\nsteps: { a: { run: x } }\n"
        ),
        (
            ["$defs", "service", "properties", "ready", "properties"],
            "version: 1\nservices: { s: { run: x, ready: { KEY: ~ } } }\nsteps: { a: { run: x } }\n"
        ),
    ]

    /// Every key the schema offers (and editors complete) is one `flow validate` knows; the reverse
    /// holds through the valid examples above, which use every key the parser accepts.
    @Test(arguments: keyPlaces.indices)
    func everySchemaKeyIsKnownToTheValidator(place index: Int) throws {
        let (path, workflow) = Self.keyPlaces[index]
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(WorkflowSchema.jsonText.utf8)) as? [String: Any])
        var node: Any = schema
        for step in path {
            if let index = Int(step), let array = node as? [Any] {
                node = array[index]
            } else {
                node = try #require((node as? [String: Any])?[step], "no \(step) in \(path)")
            }
        }
        let keys = try #require(node as? [String: Any]).keys.sorted()
        #expect(!keys.isEmpty)
        for key in keys where !workflow.contains("\(key):") {
            let source = workflow.replacingOccurrences(of: "KEY", with: key)
            let messages = WorkflowLoader.check(source: source, file: "keys.yaml").diagnostics.map(\.message)
            #expect(!messages.contains { $0.contains("unknown key '\(key)'") }, "\(path) \(key): \(messages)")
        }
    }

    static let languageExample = """
        version: 1
        name: publish-report
        description: Log in, fetch users and reports together, upload the artifact in chunks, then notify.

        inputs:
          base_url: { type: string, default: "http://127.0.0.1:8089" }
          artifact: { type: file, required: true }
          retries:  { type: number, default: 3 }

        defaults:
          http:
            base-url: ${{ inputs.base_url }}
            timeout: 10s
            headers: { Accept: application/json }
          retry: { attempts: 3, delay: 200ms, backoff: exponential, max-delay: 5s, jitter: full }

        concurrency: 16

        steps:
          login:
            http:
              method: POST
              url: /login
              json: { user: demo, password: "${{ secrets.PASSWORD }}" }
            expect: { status: 200 }
            outputs:
              token: ${{ result.json.token }}

          users:
            needs: login
            http:
              url: /api/users
              headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
            outputs:
              count: ${{ length(result.json) }}

          reports:
            needs: login
            http: { url: /api/reports }

          mirror:
            needs: login
            parallel: any            # first child to SUCCEED wins; the others are cancelled
            steps:
              eu: { http: { url: /mirror/eu } }
              us: { http: { url: /mirror/us } }

          upload:
            needs: [users, reports]
            upload:
              file: ${{ inputs.artifact }}
              url: /uploads/tus
              protocol: tus          # tus | content-range
              chunk-size: 100KiB
            outputs:
              location: ${{ result.location }}

          notify:
            needs: [upload, mirror]
            parallel: all            # every child must succeed; the first failure cancels the rest
            steps:
              done:  { http: { method: POST, url: /notify, json: { file: "${{ steps.upload.outputs.location }}" } } }
              local: { run: "echo uploaded" }

          cleanup:
            needs: notify
            if: ${{ always() }}
            run: [rm, -f, /tmp/flow-scratch]
        """
}

/// Workflow files of the repository that must be valid: the examples and the valid fixtures.
enum RepositoryFiles {
    /// The package root, found from this source file's path.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every workflow text of the repository, with where it comes from: the files in `workflows/`
    /// and the fixtures, and the complete workflows (those declaring `version:`) in the Markdown docs.
    static func candidateWorkflows() -> [(origin: String, text: String)] {
        var found: [(origin: String, text: String)] = []
        for folder in ["workflows", "Tests/FlowDSLTests/Fixtures"] {
            let base = root.appendingPathComponent(folder)
            let names = FileManager.default.subpaths(atPath: base.path) ?? []
            for name in names.sorted() where name.hasSuffix(".yaml") {
                if let text = try? String(contentsOf: base.appendingPathComponent(name), encoding: .utf8) {
                    found.append(("\(folder)/\(name)", text))
                }
            }
        }
        for document in ["Grammar.md", "README.md"] {
            let file = root.appendingPathComponent(document)
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for (line, block) in yamlBlocks(in: text) where block.hasPrefix("version:") || block.contains("\nversion:")
            {
                found.append(("\(document):\(line)", block))
            }
        }
        return found
    }

    /// The ```yaml fenced blocks of a Markdown text, with the line each starts on.
    static func yamlBlocks(in markdown: String) -> [(line: Int, text: String)] {
        var blocks: [(line: Int, text: String)] = []
        var current: (line: Int, lines: [Substring])?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let open = current {
                if line.hasPrefix("```") {
                    blocks.append((open.line, open.lines.joined(separator: "\n") + "\n"))
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            } else if line == "```yaml" {
                current = (index + 2, [])
            }
        }
        return blocks
    }
}

// MARK: - Running the schema through Python's jsonschema

/// Validates YAML files against `WorkflowSchema` with Python's `jsonschema`, the validator editors'
/// tooling is checked against, rather than with code of ours that could share our mistakes.
enum SchemaScript {
    /// Whether `python3` with `jsonschema` and `PyYAML` is installed.
    static let isAvailable: Bool = {
        (try? runPython(["-c", "import jsonschema, yaml"]))?.status == 0
    }()

    /// The first schema error of each file (nil when the file is valid), keyed by path.
    static func errors(forFiles paths: [String]) throws -> [String: String?] {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("flow-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = folder.appendingPathComponent("schema.json")
        try WorkflowSchema.jsonText.write(to: schema, atomically: true, encoding: .utf8)
        let outcome = try runPython(["-c", program, schema.path] + paths)
        guard outcome.status == 0 else {
            throw ScriptFailure(message: "python3 exited \(outcome.status): \(outcome.output)")
        }
        var result: [String: String?] = [:]
        for line in outcome.output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 2).map(String.init)
            guard parts.count == 3 else { continue }
            result[parts[1]] = parts[0] == "ok" ? String?.none : parts[2]
        }
        return result
    }

    /// The first schema error of each YAML text (nil when valid), in order.
    static func errors(forYAML texts: [String]) throws -> [String?] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, text) in texts.enumerated() {
            let file = folder.appendingPathComponent("case-\(index).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        let results = try errors(forFiles: paths)
        return try paths.map { path in
            guard let entry = results[path] else {
                throw ScriptFailure(message: "the script did not report on \(path)")
            }
            return entry
        }
    }

    struct ScriptFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    // YAML 1.2 scalars, as Yams reads a workflow: PyYAML's YAML 1.1 would make `on:` a boolean key
    // and `2024-01-01` a date, which the schema would then reject for the wrong reason.
    private static let program = #"""
        import json, re, sys, yaml, jsonschema
        class Loader(yaml.SafeLoader):
            pass
        Loader.yaml_implicit_resolvers = {
            first: [(tag, rx) for tag, rx in resolvers
                    if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
        Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
            re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            try:
                document = yaml.load(open(path, encoding="utf-8"), Loader=Loader)
            except yaml.YAMLError as error:
                print("fail\t%s\tnot YAML: %s" % (path, str(error).replace("\n", " ")))
                continue
            error = jsonschema.exceptions.best_match(validator.iter_errors(document))
            if error is None:
                print("ok\t%s\t-" % path)
            else:
                where = "/".join(str(part) for part in error.absolute_path)
                print("fail\t%s\tat /%s: %s" % (path, where, error.message.replace("\n", " ")))
        """#

    private static func runPython(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
