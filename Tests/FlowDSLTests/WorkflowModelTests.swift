import FlowDSL
import Testing

/// The checked `Workflow`: short forms, nesting, locations, and the order a run would follow.
@Suite struct WorkflowModelTests {
    static let example = """
        version: 1
        name: publish-report
        inputs:
          base_url: { type: string, default: "http://127.0.0.1:8089" }
          artifact: { type: file, required: true }
        defaults:
          http: { base-url: "${{ inputs.base_url }}", timeout: 10s }
          retry: { attempts: 3, delay: 200ms, backoff: exponential, max-delay: 5s, jitter: full }
        concurrency: 4
        steps:
          login:
            http: { method: post, url: /login, json: { user: demo, n: 2, ok: true, none: null } }
            expect: { status: 200 }
            outputs:
              token: ${{ result.json.token }}
          users:
            needs: login
            retry: 5
            http:
              url: /api/users
              headers: { Authorization: "Bearer ${{ steps.login.outputs.token }}" }
          mirror:
            needs: login
            parallel: any
            steps:
              eu: { http: { url: /mirror/eu } }
              us: { http: { url: /mirror/us } }
          upload:
            needs: [users, mirror]
            upload: { file: "${{ inputs.artifact }}", url: /tus, protocol: tus, chunk-size: 100KiB }
          cleanup:
            needs: upload
            if: always()
            run: [rm, -f, /tmp/x]
          nap:
            sleep: 2
        """

    private func workflow() throws -> Workflow {
        let result = WorkflowLoader.check(source: Self.example, file: "w.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
        return try #require(result.workflow)
    }

    @Test func topLevelSettings() throws {
        let workflow = try workflow()
        #expect(workflow.version == 1)
        #expect(workflow.name == "publish-report")
        #expect(workflow.concurrency == 4)
        #expect(workflow.inputs.map(\.name) == ["base_url", "artifact"])
        #expect(workflow.input("artifact")?.kind == .file)
        #expect(workflow.input("artifact")?.required == true)
        #expect(workflow.input("base_url")?.defaultValue == .string("http://127.0.0.1:8089"))
        #expect(workflow.defaults.http.timeout == .seconds(10))
        #expect(workflow.defaults.retry?.maxDelay == .seconds(5))
        #expect(workflow.defaults.retry?.jitter == .full)
    }

    @Test func stepsShortFormsAndNesting() throws {
        let workflow = try workflow()
        #expect(workflow.steps.map(\.id) == ["login", "users", "mirror", "upload", "cleanup", "nap"])
        #expect(workflow.allSteps.map(\.id) == ["login", "users", "mirror", "eu", "us", "upload", "cleanup", "nap"])
        #expect(workflow.step("users")?.needs == ["login"])
        #expect(workflow.step("users")?.retry?.attempts == 5)
        #expect(workflow.step("eu")?.parent == "mirror")
        #expect(workflow.step("nap")?.kind == .sleep(.seconds(2)))
        guard case .http(let login)? = workflow.step("login")?.kind else {
            Issue.record("login is not an http step")
            return
        }
        #expect(login.method == .post)
        #expect(login.expect.status == StatusPattern([.code(200)]))
        guard case .json(.object(let members))? = login.body else {
            Issue.record("login has no json object body")
            return
        }
        #expect(members.map(\.key) == ["user", "n", "ok", "none"])
        #expect(members.dropFirst().map(\.value) == [.number(2), .bool(true), .null])
        if case .string(let user) = members[0].value {
            #expect(user.text == "demo")
            #expect(user.location == SourceLocation(file: "w.yaml", line: 12, column: 54))
        } else {
            Issue.record("user is not a string")
        }
        guard case .upload(let upload)? = workflow.step("upload")?.kind else {
            Issue.record("upload is not an upload step")
            return
        }
        #expect(upload.chunkSize == 102_400)
        #expect(upload.uploadProtocol == .tus)
        #expect(upload.chunkCount(forFileSize: 1_048_576) == 11)
        guard case .group(let group)? = workflow.step("mirror")?.kind else {
            Issue.record("mirror is not a group")
            return
        }
        #expect(group.mode == .any)
        #expect(group.children.map(\.id) == ["eu", "us"])
        guard case .run(let run)? = workflow.step("cleanup")?.kind, case .arguments(let argv) = run.command else {
            Issue.record("cleanup is not an argv run step")
            return
        }
        #expect(argv.map(\.text) == ["rm", "-f", "/tmp/x"])
        #expect(workflow.step("cleanup")?.conditionExpression?.source == "always()")
    }

    @Test func locationsPointIntoTheFile() throws {
        let workflow = try workflow()
        #expect(workflow.step("login")?.location == SourceLocation(file: "w.yaml", line: 11, column: 3))
        #expect(workflow.step("eu")?.location == SourceLocation(file: "w.yaml", line: 26, column: 7))
        #expect(workflow.step("users")?.needLocations.first == SourceLocation(file: "w.yaml", line: 17, column: 12))
    }

    @Test func wavesFollowNeedsAndGroups() throws {
        let workflow = try workflow()
        #expect(
            workflow.waves == [
                ["login", "nap"],
                ["users", "mirror", "eu", "us"],
                ["upload"],
                ["cleanup"],
            ])
        #expect(workflow.order == workflow.waves.flatMap { $0 })
    }

    @Test func aLongChainIsOrderedWithoutRecursion() throws {
        var text = "version: 1\nsteps:\n  s0: { sleep: 1ms }\n"
        for index in 1..<5000 {
            text += "  s\(index): { needs: s\(index - 1), sleep: 1ms }\n"
        }
        let result = WorkflowLoader.check(source: text, file: "chain.yaml")
        let workflow = try #require(result.workflow)
        #expect(workflow.waves.count == 5000)
        #expect(workflow.order.last == "s4999")
    }
}
