import FlowDSL
import Testing

/// Which `steps.X` reads are safe: only from steps that X has finished for, whatever the path.
@Suite struct ReferenceCheckTests {
    private func errors(_ steps: String, env: String = "") -> [String] {
        let source = "version: 1\n" + env + "steps:\n" + steps
        let result = WorkflowLoader.check(source: source, file: "r.yaml")
        return result.diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    @Test func readsThroughNeedsGroupsAndChildrenAreSafe() {
        let found = errors(
            """
              login:
                run: echo token
                outputs: { token: "${{ result.stdout }}" }
              later:
                needs: login
                sleep: 1s
              last:
                needs: later
                run: echo ${{ steps.login.outputs.token }}
              group:
                needs: login
                parallel: any
                steps:
                  a: { run: "echo ${{ steps.login.outputs.token }}", outputs: { x: "${{ result.stdout }}" } }
                  b:
                    needs: a
                    run: echo ${{ steps.a.outputs.x }}
                outputs:
                  first: ${{ steps.group.winner }}
                  fromChild: ${{ steps.a.outputs.x }}
              after:
                needs: group
                if: steps.group.status == 'succeeded' && steps.a.status == 'succeeded'
                run: echo ${{ steps.group.outputs.first }} ${{ steps.group.outputs.fromChild }}
            """)
        #expect(found == [])
    }

    @Test func aSiblingWithoutANeedIsARace() {
        let found = errors(
            """
              group:
                parallel: all
                steps:
                  a: { run: echo a, outputs: { x: "${{ result.stdout }}" } }
                  b: { run: "echo ${{ steps.a.outputs.x }}" }
            """)
        #expect(found == ["step 'b' reads steps.a but does not depend on 'a'"])
    }

    @Test func winnerOnlyOnAnyGroups() {
        let found = errors(
            """
              group:
                parallel: all
                steps:
                  a: { run: echo a }
                  b: { run: echo b }
              show:
                needs: group
                run: echo ${{ steps.group.winner }}
            """)
        #expect(found == ["only 'parallel: any' groups have a 'winner'; step 'group' is not one"])
    }

    @Test func workflowValuesCannotReadSteps() {
        let found = errors("  a: { run: echo a }\n", env: "env:\n  X: ${{ steps.a.status }}\n")
        #expect(found == ["'steps' is not available here; workflow-level values are known before any step runs"])
    }

    @Test func conditionsAreOneExpression() {
        let found = errors("  a:\n    if: yes ${{ always() }}\n    run: echo a\n")
        #expect(found == ["an 'if' condition must be one expression, not text with expressions in it"])
    }

    @Test func functionArityIsChecked() {
        let found = errors("  a: { run: \"echo ${{ length() }} ${{ contains('a') }}\" }\n")
        #expect(found.count == 2)
        #expect(found.allSatisfy { $0.hasPrefix("'length' takes") || $0.hasPrefix("'contains' takes") })
    }

    @Test func resultOnlyInOwnExpectAndOutputs() {
        let ok = errors(
            """
              a:
                http:
                  url: http://127.0.0.1:9/x
                  expect: { assert: ["${{ result.status == 200 }}"] }
                outputs: { s: "${{ result.status }}" }
              b: { needs: a, run: "echo ${{ steps.a.outputs.s }}" }
            """)
        #expect(ok == [])
        let bad = errors("  a:\n    if: result.status == 200\n    run: echo a\n")
        #expect(bad == ["'result' is only available in a step's own 'expect' and 'outputs'"])
    }

    @Test func assertionsAreConditionsBareOrWrapped() {
        let found = errors(
            """
              a:
                http:
                  url: http://127.0.0.1:9/x
                  expect:
                    assert:
                      - result.status == 200
                      - ${{ result.json.ok }}
                      - reslt.status == 200
                      - ok ${{ result.status }}
            """)
        #expect(
            found == [
                "unknown name 'reslt'",
                "an 'assert' condition must be one expression, not text with expressions in it",
            ])
        let result = WorkflowLoader.check(
            source:
                "version: 1\nsteps:\n  a:\n    http: { url: http://127.0.0.1:9/x, expect: { assert: [result.status == 200] } }\n",
            file: "a.yaml"
        )
        guard case .http(let http)? = result.workflow?.step("a")?.kind else {
            Issue.record("a is not an http step")
            return
        }
        #expect(http.expect.assertions.first?.conditionExpression?.source == "result.status == 200")
    }

    @Test func expressionErrorsPointInsideTheExpression() {
        let result = WorkflowLoader.check(
            source: "version: 1\nsteps:\n  a: { run: \"echo ${{ 'x' == }}\" }\n",
            file: "e.yaml"
        )
        let location = result.diagnostics.first?.location
        #expect(location?.line == 3)
        // `run: "echo ${{ 'x' == }}"`: the quote is column 13, so the text starts at 14 and the
        // missing operand sits after `== `, 15 characters further.
        #expect(location?.column == 14 + "echo ${{ 'x' == ".count)
    }
}
