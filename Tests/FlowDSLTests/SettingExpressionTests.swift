import FlowDSL
import Testing

/// `retry`, `timeout`, `concurrency` and `chunk-size` take `${{ }}`, computed when the run starts.
@Suite struct SettingExpressionTests {
    private let yaml = """
        version: 1
        inputs:
          retries: { type: number, default: 2 }
          wait: { default: 250ms }
          chunk: { default: 1MiB }
          width: { default: "3" }
        concurrency: ${{ inputs.width }}
        defaults:
          retry: { attempts: "${{ inputs.retries }}", delay: "${{ inputs.wait }}" }
          timeout: ${{ inputs.wait }}
        steps:
          flaky:
            retry: ${{ inputs.retries }}
            timeout: "${{ inputs.wait }}"
            run: exit 1
          group:
            parallel: all
            steps:
              send:
                upload: { file: /tmp/x, url: "http://h/u", protocol: tus, chunk-size: "${{ inputs.chunk }}" }
                retry: { attempts: 4, max-delay: "${{ inputs.wait }}" }
        """

    private func context(_ inputs: [String: Value]) -> ExpressionTestContext {
        ExpressionTestContext(roots: ["inputs": .object(inputs), "env": .object([:])])
    }

    /// A request's own `timeout` and `defaults.http.timeout` too, each into its own field.
    @Test func requestTimeoutsTakeExpressions() throws {
        let source = """
            version: 1
            inputs:
              slow: { default: 45s }
            defaults:
              http: { base-url: "http://h", timeout: "${{ inputs.slow }}" }
            steps:
              call: { http: { url: /x, timeout: "${{ inputs.slow }}" } }
            """
        let checked = WorkflowLoader.check(source: source, file: "t.yaml")
        #expect(checked.diagnostics.isEmpty, "\(checked.renderedDiagnostics())")
        let workflow = try #require(checked.workflow)
        let resolved = try workflow.resolvingSettings(in: context(["slow": .string("45s")])).get()
        #expect(resolved.defaults.http.timeout == .seconds(45))
        #expect(resolved.defaults.timeout == nil, "the step timeout default is another field")
        guard case .http(let request)? = resolved.step("call")?.kind else {
            Issue.record("call is not an http step")
            return
        }
        #expect(request.timeout == .seconds(45))
        let wrong = workflow.resolvingSettings(in: context(["slow": .string("soon")]))
        guard case .failure(let problems) = wrong else {
            Issue.record("'soon' is not a duration")
            return
        }
        #expect(problems.problems.count == 2)
    }

    @Test func expressionsAreAcceptedWhereFixedValuesAreNeeded() throws {
        let result = WorkflowLoader.check(source: yaml, file: "s.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
        #expect(result.workflow?.settingExpressions.count == 8)
    }

    @Test func theRunStartComputesThemIntoTheirFields() throws {
        let workflow = try #require(WorkflowLoader.check(source: yaml, file: "s.yaml").workflow)
        let resolved = try workflow.resolvingSettings(
            in: context([
                "retries": .number(5), "wait": .string("2s"), "chunk": .string("1MiB"), "width": .string("3"),
            ])
        ).get()
        #expect(resolved.concurrency == 3)
        #expect(resolved.defaults.retry?.attempts == 5)
        #expect(resolved.defaults.retry?.delay == .seconds(2))
        #expect(resolved.defaults.timeout == .seconds(2))
        #expect(resolved.step("flaky")?.retry?.attempts == 5)
        #expect(resolved.step("flaky")?.timeout == .seconds(2))
        #expect(resolved.step("send")?.retry?.attempts == 4)
        #expect(resolved.step("send")?.retry?.maxDelay == .seconds(2))
        guard case .upload(let upload)? = resolved.step("send")?.kind else {
            Issue.record("send is not an upload")
            return
        }
        #expect(upload.chunkSize == 1_048_576)
    }

    @Test func aValueThatDoesNotFitIsAnErrorAtTheExpression() throws {
        let workflow = try #require(WorkflowLoader.check(source: yaml, file: "s.yaml").workflow)
        let result = workflow.resolvingSettings(
            in: context(["retries": .number(2.5), "wait": .string("soon"), "chunk": .number(0), "width": .string("3")]))
        guard case .failure(let failure) = result else {
            Issue.record("resolved a retry count of 2.5")
            return
        }
        let problems = failure.problems
        let messages = problems.map { "\($0.location.line): \($0.message)" }
        #expect(
            messages.contains(
                "13: 'retry' of step 'flaky' is '${{ inputs.retries }}', which is number 2.5: it must be a whole number of at least 1"
            ))
        #expect(
            messages.contains(
                "14: 'timeout' of step 'flaky' is '${{ inputs.wait }}', which is the text 'soon': it must be a duration like 10s or 1m30s"
            ))
        #expect(messages.contains { $0.hasPrefix("20: 'chunk-size'") })
        #expect(problems.count == 7)
    }

    @Test func anExpressionThereIsCheckedLikeAnyOther() {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a:\n    retry: ${{ input.retries }}\n    run: exit 1\n", file: "s.yaml")
        #expect(result.diagnostics.map(\.message) == ["unknown name 'input'"])
    }
}
