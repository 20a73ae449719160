import FlowDSL
import Foundation
import Testing

/// `for-each` as the checker reads it: the keys, and every mistake found before running, each at
/// its place.
@Suite struct ForEachCheckTests {
    private func check(_ steps: String, top: String = "") -> CheckResult {
        WorkflowLoader.check(source: "version: 1\n" + top + "steps:\n" + steps, file: "f.yaml")
    }

    private func errors(_ steps: String, top: String = "") -> [Diagnostic] {
        check(steps, top: top).diagnostics.filter { $0.severity == .error }
    }

    @Test func aForEachStepIsReadWithItsPolicy() throws {
        let result = check(
            """
              list:
                run: echo '["a"]'
                outputs: { names: "${{ fromJSON(result.stdout) }}" }
              fetch:
                needs: list
                for-each: ${{ steps.list.outputs.names }}
                as: name
                concurrency: 4
                parallel: any
                at-least: 1
                http: { url: "http://127.0.0.1:9/${{ name }}?i=${{ index }}" }
                outputs: { size: "${{ result.json.size }}" }
              after:
                needs: fetch
                run: echo ${{ steps.fetch.outputs.size }} ${{ steps.fetch.items[0].status }}
              files:
                for-each: [a, b]
                fail-fast: false
                run: echo ${{ item }}
            """)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.message) == [])
        let workflow = try #require(result.workflow)
        let fetch = try #require(workflow.step("fetch")?.forEach)
        #expect(fetch.name == "name")
        #expect(fetch.concurrency == 4)
        #expect(fetch.mode == .any)
        #expect(fetch.atLeast == 1)
        #expect(!fetch.itemsAreStatic)
        if case .http = workflow.step("fetch")?.kind {} else { Issue.record("fetch is an http step") }
        let files = try #require(workflow.step("files")?.forEach)
        #expect(files.name == "item" && files.mode == .all && !files.failFast && files.itemsAreStatic)
    }

    @Test(arguments: [
        ("for-each: 3", "'for-each' needs a list, not a number", 4),
        ("for-each: true", "'for-each' needs a list, not a boolean", 4),
        ("for-each: some-text", "'for-each' needs a list, not the text 'some-text'", 4),
        ("for-each: \"a-${{ env.X }}\"", "'for-each' needs a list, not the text 'a-${{ env.X }}'", 4),
        ("for-each: ${{ 3 }}", "'for-each' of step 's' needs a list, but '${{ 3 }}' is number", 4),
    ])
    func itemsThatCanNeverBeAListAreRefused(line: String, message: String, lineNumber: Int) throws {
        let found = errors(
            """
              s:
                \(line)
                sleep: 0s
            """)
        let error = try #require(found.first)
        #expect(found.count == 1, "\(found.map(\.message))")
        #expect(error.message == message)
        #expect(error.location?.line == lineNumber)
        #expect(error.location?.column == 15)
        #expect(error.hint?.contains("range(0, 10)") == true)
    }

    @Test func itemOutsideAForEachStepIsAnErrorWithAHint() throws {
        let found = errors(
            """
              plain:
                run: echo ${{ item }} ${{ index }}
              named:
                for-each: [a]
                as: file
                if: ${{ file != 'x' }}
                run: echo ${{ item }}
              own:
                for-each: ${{ range(0, item) }}
                sleep: 0s
            """)
        let messages = found.map(\.message)
        #expect(
            messages == [
                "'item' is only available in a 'for-each' step, and step 'plain' has no 'for-each'",
                "'index' is only available in a 'for-each' step, and step 'plain' has no 'for-each'",
                "'if' of step 'named' cannot read 'file': it decides once, before the items run",
                "step 'named' names its item 'file', not 'item'",
                "'for-each' of step 'own' cannot read 'item': the items are computed before any item exists",
            ])
        #expect(found[0].location == SourceLocation(file: "f.yaml", line: 4, column: 19))
        #expect(found.allSatisfy { $0.hint != nil })
    }

    @Test func asMustNotHideARootAndNumbersMustBeInRange() {
        let found = errors(
            """
              a:
                for-each: [x]
                as: steps
                sleep: 0s
              b:
                for-each: [x]
                as: index
                sleep: 0s
              c:
                for-each: [x]
                as: my-item
                sleep: 0s
              d:
                for-each: [x]
                concurrency: 0
                sleep: 0s
              e:
                for-each: [x, y]
                parallel: any
                at-least: 3
                sleep: 0s
              f:
                for-each: ${{ range(0, 2) }}
                parallel: any
                at-least: 5
                sleep: 0s
              g:
                for-each: [x]
                at-least: 1
                sleep: 0s
              h:
                concurrency: 2
                as: x
                sleep: 0s
            """)
        #expect(
            found.map(\.message) == [
                "'as: steps' hides the name 'steps' expressions already read",
                "'as: index' hides the name 'index' expressions already read",
                "'as: my-item' is not a name expressions can read",
                "'concurrency' must be at least 1, not 0",
                "'at-least: 3' asks for more successes than the 2 item(s) of 'for-each'",
                "'at-least: 5' asks for more successes than the 2 item(s) of 'for-each' of step 'f'",
                "'at-least' only applies with 'parallel: any'",
                "'concurrency' only applies to 'for-each' steps, not to step 'h'",
                "'as' only applies to 'for-each' steps, not to step 'h'",
            ])
        #expect(found.allSatisfy { $0.location != nil })
    }

    @Test func aGroupsItemIsReadInItsDescendantsAndItsPolicyUnderItems() throws {
        let result = check(
            """
              g:
                for-each: [a, b]
                as: name
                items: { parallel: any, at-least: 2 }
                parallel: all
                fail-fast: false
                steps:
                  one: { run: "echo ${{ name }} ${{ index }}" }
                  inner:
                    parallel: any
                    steps:
                      deep:
                        if: ${{ name != 'b' }}
                        run: echo ${{ name }}
                      other: { sleep: 0s }
                  two:
                    needs: one
                    for-each: ${{ range(index, 2) }}
                    run: echo ${{ name }} ${{ item }}
                    outputs: { seen: "${{ name }}" }
                outputs: { name: "${{ name }}", seen: "${{ steps.two.outputs.seen }}" }
              after:
                needs: g
                run: echo ${{ steps.g.outputs.name }} ${{ steps.g.outputs.seen }} ${{ steps.g.items[0].status }}
            """)
        #expect(result.diagnostics.filter { $0.severity == .error }.map(\.message) == [])
        let workflow = try #require(result.workflow)
        let group = try #require(workflow.step("g"))
        #expect(group.forEach?.mode == .any && group.forEach?.atLeast == 2)
        guard case .group(let kind) = group.kind else {
            Issue.record("g is not a group")
            return
        }
        #expect(kind.mode == .all && !kind.failFast, "the group's own keys decide each item")
        #expect(workflow.step("g[1]/deep")?.id == "deep")
        let body = try #require(workflow.forEachGroupBody("g"))
        #expect(body.steps.map(\.id) == ["g"] && body.steps[0].forEach == nil && body.steps[0].needs.isEmpty)
    }

    @Test func aGroupsChildrenAndItemAreNotReadOutsideIt() throws {
        let found = errors(
            """
              g:
                for-each: [a, b]
                parallel: all
                steps:
                  one: { run: "echo ${{ item }}" }
              after:
                needs: one
                run: echo "${{ steps.one.status }} ${{ item }}"
              stray:
                for-each: [a]
                items: { parallel: any }
                sleep: 0s
            """)
        #expect(
            Set(found.map(\.message)) == [
                "step 'one' runs once per item of the 'for-each' group 'g'; steps.one is only known inside the group",
                "'item' is only available in a 'for-each' step, and step 'after' has no 'for-each'",
                "'items' only applies to a group with 'for-each', not to step 'stray'",
                "step 'after' needs 'one', which runs once per item of the 'for-each' group 'g'",
            ])
        let needs = try #require(found.first { $0.message.hasPrefix("step 'after' needs 'one'") })
        #expect(needs.location?.description == "f.yaml:9:12")
        let read = try #require(found.first { $0.message.hasPrefix("step 'one' runs once per item") })
        #expect(read.location?.description == "f.yaml:10:20")
    }

    @Test func aConcurrencyAboveTheWorkflowsIsAWarning() {
        let result = check(
            """
              s:
                for-each: [a]
                concurrency: 50
                sleep: 0s
            """, top: "concurrency: 8\n")
        #expect(
            result.diagnostics.map(\.message) == [
                "'concurrency: 50' of step 's' is above the workflow's 8; at most 8 items run at once"
            ])
    }

    @Test func itemsIsOnlyReadOfForEachSteps() {
        let found = errors(
            """
              a: { sleep: 0s }
              b:
                needs: a
                run: echo ${{ steps.a.items }}
            """)
        #expect(found.map(\.message) == ["only 'for-each' steps have 'items'; step 'a' is not one"])
    }

    @Test func rangeAndFilesGiveLists() throws {
        let context = ExpressionTestContext(roots: [:])
        #expect(try evaluate("range(0, 3)", in: context) == .array([0, 1, 2]))
        #expect(try evaluate("range(2, 2)", in: context) == .array([]))
        #expect(throws: EvaluationError.self) { try evaluate("range(0, 'x')", in: context) }
        #expect(throws: EvaluationError.self) { try evaluate("files('*.csv')", in: context) }
    }
}
