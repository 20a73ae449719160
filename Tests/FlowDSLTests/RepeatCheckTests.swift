import FlowDSL
import Testing

/// `repeat:` is checked before running: its shape, where `previous` and `attempt` may be read,
/// and the mistakes that are certain (a condition or a `collect` entry that reads no attempt).
@Suite struct RepeatCheckTests {
    private func check(_ steps: String) -> CheckResult {
        WorkflowLoader.check(source: "version: 1\nsteps:\n" + steps, file: "r.yaml")
    }

    private func errors(_ steps: String) -> [String] {
        check(steps).diagnostics.filter { $0.severity == .error }.map { "\($0.location?.line ?? 0): \($0.message)" }
    }

    @Test func aPollAndAPaginationAreValidAndKeepTheirRules() throws {
        let result = check(
            """
              submit:
                http: { method: POST, url: "http://h/jobs" }
                outputs: { id: "${{ result.json.id }}" }
              wait:
                needs: submit
                http: { url: "http://h/jobs/${{ steps.submit.outputs.id }}?try=${{ attempt }}" }
                repeat:
                  until: ${{ result.json.state == 'done' }}
                  every: 250ms
                  max-attempts: 30
                outputs: { state: "${{ result.json.state }}" }
              all:
                http: { url: "${{ previous.json.next || 'http://h/pages' }}" }
                repeat:
                  while: result.json.next != null && attempt < 50
                  every: 0s
                  collect: { items: "${{ result.json.items }}" }
              use:
                needs: [wait, all]
                run: echo ${{ steps.wait.outputs.state }} ${{ toJSON(steps.all.outputs.items) }}
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let workflow = try #require(result.workflow)
        let wait = try #require(workflow.step("wait")?.repeat)
        #expect(wait.mode == .until)
        #expect(wait.every == .milliseconds(250))
        #expect(wait.maxAttempts == 30)
        let all = try #require(workflow.step("all")?.repeat)
        #expect(all.mode == .while)
        #expect(all.maxAttempts == Repeat.defaultMaxAttempts)
        #expect(all.collect.map(\.name) == ["items"])
        #expect(workflow.step("all")?.outputNames == ["items"])
    }

    @Test func theShapeOfRepeatIsChecked() {
        let found = errors(
            """
              none:
                sleep: 0s
                repeat: { every: 1s }
              both:
                sleep: 0s
                repeat: { until: "${{ attempt > 2 }}", while: "${{ attempt < 2 }}" }
              typo:
                sleep: 0s
                repeat: { until: "${{ attempt > 2 }}", max-attempt: 3 }
              numbers:
                sleep: 0s
                repeat: { until: "${{ attempt > 2 }}", every: soon, max-attempts: 0 }
              computed:
                sleep: 0s
                repeat: { until: "${{ attempt > 2 }}", max-attempts: "${{ inputs.n }}" }
              group:
                parallel: all
                steps: { child: { sleep: 0s } }
                repeat: { until: "${{ attempt > 2 }}" }
            """)
        #expect(
            found == [
                "5: 'repeat' of step 'none' has no 'until' or 'while'",
                "8: 'repeat' of step 'both' has both 'until' and 'while'",
                "11: unknown key 'max-attempt' in 'repeat'",
                "14: 'every' 'soon' is not a duration",
                "14: 'max-attempts' must be at least 1, not 0",
                "17: 'max-attempts' of 'repeat' must be written in the file, not computed",
                "21: 'repeat' does not apply to 'parallel' step 'group'",
            ])
        let typo = check("  s:\n    sleep: 0s\n    repeat: { until: \"${{ attempt > 2 }}\", max-attempt: 3 }\n")
        #expect(typo.diagnostics.first?.hint == "did you mean 'max-attempts'?")
    }

    @Test func previousAndAttemptAreOnlyKnownInsideARepeat() {
        let found = errors(
            """
              plain:
                run: echo ${{ attempt }}
              guarded:
                if: ${{ attempt > 1 }}
                run: echo ${{ previous.stdout }}
                repeat: { until: "${{ result.stdout == 'x' }}" }
              reader:
                needs: guarded
                run: echo ${{ previous }}
            """)
        #expect(
            found == [
                "4: 'attempt' is only available in a step with 'repeat'; step 'plain' has none",
                "6: 'attempt' is not known in the 'if' of step 'guarded': it is decided before the first attempt",
                "11: 'previous' is only available in a step with 'repeat'; step 'reader' has none",
            ])
    }

    @Test func conditionsAndCollectMustReadTheAttempt() {
        let found = errors(
            """
              ready:
                run: echo ready
                outputs: { state: "${{ result.stdout }}" }
              stuck:
                needs: ready
                run: echo poll
                repeat:
                  until: ${{ steps.ready.outputs.state == 'done' }}
                  collect: { same: "${{ steps.ready.outputs.state }}", lines: "${{ result.stdout }}" }
                outputs: { lines: "${{ result.stdout }}" }
              bare:
                run: echo poll
                repeat: { while: "true", collect: { n: "${{ result.exit_code }}" } }
              phrase:
                run: echo poll
                repeat: { until: "state is ${{ result.stdout }}" }
            """)
        #expect(
            found.sorted()
                == [
                    "10: the 'until' condition of step 'stuck' reads neither 'result', 'previous' nor 'attempt', so every attempt gives the same answer",
                    "11: 'collect' entry 'same' of step 'stuck' does not read 'result'",
                    "11: step 'stuck' has both an output and a 'collect' entry named 'lines'",
                    "15: the 'while' condition of step 'bare' reads neither 'result', 'previous' nor 'attempt', so every attempt gives the same answer",
                    "18: an 'until' condition must be one expression, not text with expressions in it",
                ].sorted())
    }

    @Test func aCollectEntryIsAnOutputOthersRead() {
        let found = errors(
            """
              pages:
                http: { url: "http://h/pages" }
                repeat: { while: "${{ result.json.next != null }}", collect: { items: "${{ result.json.items }}" } }
              use:
                needs: pages
                run: echo ${{ toJSON(steps.pages.outputs.items) }} ${{ steps.pages.outputs.itemz }}
            """)
        #expect(found == ["8: step 'pages' has no output 'itemz'"])
    }
}
