import FlowSandbox
import Foundation
import Testing

/// The rules for paths in a workflow (Grammar.md, "Paths"): relative paths are read from the
/// workflow file's folder from whatever folder flow runs in, and a path a server names cannot
/// lead outside the folder its written text names unless the step sets `allow-outside: true`.
@Suite struct PathRuleTests {
    /// A folder `dir` holding `wf/` (the workflow's folder, with `downloads/link` a symbolic link to
    /// `dir/elsewhere`), removed at the end.
    struct Layout {
        let dir: URL
        var workflowFolder: URL { dir.appendingPathComponent("wf") }
        var elsewhere: URL { dir.appendingPathComponent("elsewhere") }

        init() throws {
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("flow-paths-\(UUID().uuidString)")
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("wf/downloads"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: dir.appendingPathComponent("wf/downloads/link").path, withDestinationPath: elsewhere.path)
        }

        func write(_ name: String, _ text: String) throws -> String {
            let path = workflowFolder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

        func remove() { try? FileManager.default.removeItem(at: dir) }
    }

    /// A step that asks the sandbox to hand back `names` and an absolute path (as an API listing
    /// files would), then a `for-each` over the names writing each with
    /// `save-to: downloads/${{ item }}`, and a step writing to the absolute path as given.
    static func saveWorkflow(_ sandbox: String, names: [String], absolute: String, allowOutside: Bool) -> String {
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            version: 1
            steps:
              names:
                http: { method: POST, url: "\(sandbox)/echo", json: { names: [\(list)], absolute: "\(absolute)" } }
                outputs:
                  names: "${{ fromJSON(result.json.body).names }}"
                  absolute: "${{ fromJSON(result.json.body).absolute }}"
              direct:
                needs: names
                \(allowOutside ? "allow-outside: true" : "")
                http: { url: "\(sandbox)/bytes/10", save-to: "${{ steps.names.outputs.absolute }}" }
              fetch:
                needs: names
                for-each: ${{ steps.names.outputs.names }}
                fail-fast: false
                \(allowOutside ? "allow-outside: true" : "")
                http:
                  url: "\(sandbox)/bytes/10"
                  save-to: "downloads/${{ item }}"

            """
    }

    @Test func aServerNamedSaveToCannotLeaveItsFolderUnlessTheStepAllowsIt() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let layout = try Layout()
        defer { layout.remove() }
        let absolute = layout.dir.appendingPathComponent("absolute.bin").path
        let names = ["ok.bin", "../../climbed.bin", "sub/../../../climbed2.bin", "link/linked.bin"]
        let file = try layout.write(
            "save.yaml", Self.saveWorkflow(sandbox.baseURL, names: names, absolute: absolute, allowOutside: false))

        let refused = try await FlowProcess.run(["run", file])
        let output = refused.stdout + refused.stderr
        #expect(refused.exitCode == 1, "\(output)")
        #expect(layout.exists(layout.workflowFolder.appendingPathComponent("downloads/ok.bin").path), "\(output)")
        #expect(!layout.exists(layout.dir.appendingPathComponent("climbed.bin").path))
        #expect(!layout.exists(absolute))
        #expect(!layout.exists(layout.elsewhere.appendingPathComponent("linked.bin").path))
        let downloads = "'downloads/' (\(layout.workflowFolder.path)/downloads)"
        #expect(
            output.contains(
                "'save-to' is 'downloads/../../climbed.bin': its ${{ }} value leads outside \(downloads) with '..'"),
            "\(output)")
        #expect(output.contains("'save-to' is 'downloads/sub/../../../climbed2.bin'"), "\(output)")
        #expect(
            output.contains(
                "'save-to' is '\(absolute)': its ${{ }} value leads outside the workflow's folder "
                    + "(\(layout.workflowFolder.path)) with an absolute path"),
            "\(output)")
        #expect(
            output.contains("'save-to' is 'downloads/link/linked.bin': the way there from \(downloads)"), "\(output)")
        #expect(output.contains("symbolic link '\(layout.workflowFolder.path)/downloads/link'"), "\(output)")
        #expect(output.contains("allow-outside: true"), "\(output)")

        let allowedFile = try layout.write(
            "allowed.yaml", Self.saveWorkflow(sandbox.baseURL, names: names, absolute: absolute, allowOutside: true))
        let allowed = try await FlowProcess.run(["run", allowedFile])
        #expect(allowed.exitCode == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(layout.exists(layout.dir.appendingPathComponent("climbed.bin").path))
        #expect(layout.exists(absolute))
        #expect(layout.exists(layout.elsewhere.appendingPathComponent("linked.bin").path))
    }

    /// `--dry-run` shows the paths a run would refuse when their values are known before it (here
    /// the items of a YAML list), and the path it would write otherwise.
    @Test func theDryRunShowsWhatTheRunWouldRefuse() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let file = try layout.write(
            "plan.yaml",
            """
            version: 1
            steps:
              fetch:
                for-each: [ok.bin, ../../x.bin]
                http: { url: "http://127.0.0.1:9/bytes/10", save-to: "downloads/${{ item }}" }

            """)
        let plan = try await FlowProcess.run(["run", file, "--dry-run"], shell: "cd /")
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        let downloads = layout.workflowFolder.appendingPathComponent("downloads").path
        #expect(plan.stdout.contains("save-to \(downloads)/ok.bin"), "\(plan.stdout)")
        #expect(
            plan.stdout.contains("refused: 'save-to' is 'downloads/../../x.bin': its ${{ }} value leads outside"),
            "\(plan.stdout)")
        #expect(plan.stdout.components(separatedBy: "refused:").count == 2, "\(plan.stdout)")
    }

    /// A server's `../secret.txt` cannot make flow read a file above the workflow's folder and send
    /// it, whether as `body-file`, a multipart file or an `upload.file`; nothing reaches the server.
    /// The same file named by the user (a `file` input) is sent.
    @Test func aServerNamedFileToSendCannotLeaveTheWorkflowsFolder() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let layout = try Layout()
        defer { layout.remove() }
        try "top secret".write(to: layout.dir.appendingPathComponent("secret.txt"), atomically: true, encoding: .utf8)
        let file = try layout.write(
            "send.yaml",
            """
            version: 1
            inputs:
              doc: { type: file, required: true }
            steps:
              mine:
                http: { method: POST, url: "\(sandbox.baseURL)/sink", body-file: "${{ inputs.doc }}" }
              names:
                http: { method: POST, url: "\(sandbox.baseURL)/echo", json: { file: ../secret.txt } }
                outputs: { file: "${{ fromJSON(result.json.body).file }}" }
              body:
                needs: names
                http: { method: POST, url: "\(sandbox.baseURL)/sink", body-file: "${{ steps.names.outputs.file }}" }
              form:
                needs: names
                http:
                  method: POST
                  url: "\(sandbox.baseURL)/multipart"
                  multipart: { doc: { file: "${{ steps.names.outputs.file }}" } }
              upload:
                needs: names
                upload: { file: "${{ steps.names.outputs.file }}", url: "\(sandbox.baseURL)/uploads/tus", protocol: tus }

            """)
        // A `file` input is the user's: read from where they typed it, and anywhere they name.
        let run = try await FlowProcess.run(
            ["run", file, "--input", "doc=secret.txt"], shell: "cd '\(layout.dir.path)'")
        let output = run.stdout + run.stderr
        #expect(run.exitCode == 1, "\(output)")
        #expect(output.contains("[mine] succeeded"), "\(output)")
        for key in ["'body-file'", "multipart part 'doc'", "'upload.file'"] {
            #expect(output.contains("\(key) is '../secret.txt': its ${{ }} value leads outside"), "\(key): \(output)")
        }
        #expect(!output.contains("top secret"))
    }

    /// `for-each: files('data/*')` with `upload.file: ${{ item }}`, `body-file` and `cwd` works the
    /// same from the workflow's folder and from another one; the dry run shows the paths the run uses.
    @Test func relativePathsAreReadFromTheWorkflowsFolderWhateverTheCurrentFolder() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let layout = try Layout()
        defer { layout.remove() }
        let data = layout.workflowFolder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "alpha".write(to: data.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try "beta!".write(to: data.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        let file = try layout.write(
            "files.yaml",
            """
            version: 1
            steps:
              send:
                for-each: ${{ files('data/*') }}
                upload: { file: "${{ item }}", url: "\(sandbox.baseURL)/uploads/tus", protocol: tus }
              post:
                for-each: ${{ files('data/*') }}
                http: { method: POST, url: "\(sandbox.baseURL)/sink", body-file: "${{ item }}" }
                outputs: { bytes: "${{ result.json.bytes }}" }
              list:
                run: cat a.txt
                cwd: data
                outputs: { text: "${{ result.stdout }}" }

            """)
        // From the folder above the workflow's, as CI runs `flow run workflows/x.yaml`.
        for folder in [layout.dir.path, layout.workflowFolder.path, "/"] {
            let run = try await FlowProcess.run(["run", file], shell: "cd '\(folder)'")
            #expect(run.exitCode == 0, "from \(folder): \(run.stdout)\(run.stderr)")
        }
        let plan = try await FlowProcess.run(["run", file, "--dry-run"], shell: "cd /")
        #expect(plan.exitCode == 0, "\(plan.stdout)\(plan.stderr)")
        #expect(plan.stdout.contains("file \(data.path)/a.txt (5 bytes)"), "\(plan.stdout)")
        #expect(plan.stdout.contains("body from file \(data.path)/b.txt"), "\(plan.stdout)")
        #expect(plan.stdout.contains("in \(data.path)"), "\(plan.stdout)")
    }

    /// `files()` lists only files inside the workflow's folder: an absolute or climbing literal
    /// pattern is an error `validate` finds; one from an input fails its step when it runs.
    @Test func filesPatternsStayInsideTheWorkflowsFolder() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        for pattern in ["/etc/*", "../../../etc/*", "data/../../x/*"] {
            let file = try layout.write(
                "glob.yaml",
                """
                version: 1
                steps:
                  each:
                    for-each: ${{ files('\(pattern)') }}
                    run: echo hi

                """)
            let check = try await FlowProcess.run(["validate", file])
            #expect(check.exitCode == 2, "\(pattern): \(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("error: the pattern '\(pattern)'"), "\(check.stderr)")
        }
        let file = try layout.write(
            "input.yaml",
            """
            version: 1
            inputs:
              pattern: { default: "*.yaml" }
            steps:
              each:
                for-each: ${{ files(inputs.pattern) }}
                run: echo hi

            """)
        let run = try await FlowProcess.run(["run", file, "--input", "pattern=../../../etc/*"])
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        #expect(
            (run.stdout + run.stderr).contains("leads outside the workflow's folder"), "\(run.stdout)\(run.stderr)")
    }

    /// `allow-outside` belongs to steps that read or write files at paths (`http`, `upload`).
    @Test func validateRefusesAllowOutsideOnAStepWithoutPaths() async throws {
        let layout = try Layout()
        defer { layout.remove() }
        let file = try layout.write(
            "misplaced.yaml",
            """
            version: 1
            steps:
              a:
                run: echo hi
                allow-outside: true
              b:
                http: { url: "http://127.0.0.1:9/x", save-to: out.bin }
                allow-outside: true

            """)
        let check = try await FlowProcess.run(["validate", file])
        #expect(check.exitCode == 2, "\(check.stdout)\(check.stderr)")
        #expect(
            check.stderr.contains(
                "misplaced.yaml:5:5: error: 'allow-outside' only applies to 'http' and 'upload' steps"),
            "\(check.stderr)")
        #expect(!check.stderr.contains(":8:"), "\(check.stderr)")
    }

    /// `max-size` caps a `save-to` file: a body announced larger is refused before a byte is
    /// written, one without `Content-Length` is stopped when it crosses the cap; no file is left.
    @Test func maxSizeStopsASaveToBodyOverTheLimit() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let layout = try Layout()
        defer { layout.remove() }
        for chunked in [false, true] {
            let file = try layout.write(
                "capped.yaml",
                """
                version: 1
                steps:
                  fetch:
                    http:
                      url: "\(sandbox.baseURL)/bytes/\(4 << 20)?chunked=\(chunked)"
                      save-to: downloads/big.bin
                      max-size: 64KiB

                """)
            let run = try await FlowProcess.run(["run", file])
            let output = run.stdout + run.stderr
            #expect(run.exitCode == 1, "\(output)")
            #expect(output.contains("is larger than max-size (64KiB, 65536 bytes)"), "\(output)")
            let downloads = try FileManager.default.contentsOfDirectory(
                atPath: layout.workflowFolder.appendingPathComponent("downloads").path)
            #expect(downloads == ["link"], "\(downloads)")
        }
        // With `resume`, the cap is on the whole file: 48 KiB there and 52 KiB more make 100 KiB.
        let resumed = try layout.write(
            "resumed.yaml",
            """
            version: 1
            steps:
              fetch:
                http:
                  url: "\(sandbox.baseURL)/downloads/\(100 << 10)"
                  save-to: downloads/part.bin
                  resume: true
                  max-size: 64KiB

            """)
        let partial = layout.workflowFolder.appendingPathComponent("downloads/.part.bin.flow-partial")
        try Data(DownloadContent.bytes(0..<(48 << 10))).write(to: partial)
        let over = try await FlowProcess.run(["run", resumed])
        #expect(over.exitCode == 1, "\(over.stdout)\(over.stderr)")
        #expect((over.stdout + over.stderr).contains("is larger than max-size (64KiB"), "\(over.stdout)\(over.stderr)")
        #expect((try? Data(contentsOf: partial))?.count == 48 << 10)
        try FileManager.default.removeItem(at: partial)

        let small = try layout.write(
            "small.yaml",
            """
            version: 1
            steps:
              fetch:
                http: { url: "\(sandbox.baseURL)/bytes/1000?chunked=true", save-to: downloads/ok.bin, max-size: 1000B }

            """)
        let run = try await FlowProcess.run(["run", small])
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        let missing = try layout.write(
            "orphan.yaml",
            """
            version: 1
            steps:
              fetch:
                http: { url: "\(sandbox.baseURL)/bytes/10", max-size: 1KiB }

            """)
        let check = try await FlowProcess.run(["validate", missing])
        #expect(check.exitCode == 2 && check.stderr.contains("'max-size' needs 'save-to'"), "\(check.stderr)")
    }
}
