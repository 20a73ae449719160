import FlowDSL
import Testing

/// The race check ("reads steps.X but does not depend on X") through every way a step can wait for
/// another, including the memoised and pruned searches large workflows rely on.
@Suite struct DependencyQueryTests {
    static func races(_ source: String) -> [String] {
        WorkflowLoader.check(source: "version: 1\n" + source, file: "deps.yaml").diagnostics
            .map(\.message).filter { $0.contains("does not depend") }
    }

    @Test func needsOfNeedsCount() {
        #expect(
            Self.races(
                """
                steps:
                  a: { run: x, outputs: { v: "${{ result.stdout }}" } }
                  b: { needs: a, run: x }
                  c: { needs: b, run: "echo ${{ steps.a.outputs.v }}" }
                """
            ) == [])
    }

    @Test func aLongChainReadingItsFirstStepHasNoRace() {
        var source = "steps:\n  s0: { run: x, outputs: { v: \"${{ result.stdout }}\" } }\n"
        for index in 1...300 {
            source += "  s\(index): { needs: s\(index - 1), run: \"echo ${{ steps.s0.outputs.v }}\" }\n"
        }
        #expect(Self.races(source) == [])
    }

    @Test func anUnrelatedStepIsARaceEvenAfterTheSameTargetWasSearched() {
        let races = Self.races(
            """
            steps:
              a: { run: x, outputs: { v: "${{ result.stdout }}" } }
              b: { needs: a, run: x }
              z: { run: x }
              x: { needs: z, run: "echo ${{ steps.a.outputs.v }}" }
              w: { needs: [z, b], run: "echo ${{ steps.a.outputs.v }}" }
              y: { needs: x, run: "echo ${{ steps.a.outputs.v }}" }
            """
        )
        #expect(
            races == [
                "step 'x' reads steps.a but does not depend on 'a'",
                "step 'y' reads steps.a but does not depend on 'a'",
            ])
    }

    @Test func groupsCountAsWaitingForTheirChildrenAndTheirNeeds() {
        let races = Self.races(
            """
            steps:
              a: { run: x, outputs: { v: "${{ result.stdout }}" } }
              g:
                needs: a
                parallel: all
                steps:
                  c1: { run: "echo ${{ steps.a.outputs.v }}", outputs: { v: "${{ result.stdout }}" } }
                  c2: { run: "echo ${{ steps.c1.outputs.v }}" }
                  c3: { needs: c1, run: "echo ${{ steps.c1.outputs.v }}" }
                outputs: { v: "${{ steps.c1.outputs.v }}" }
              d: { needs: g, run: "echo ${{ steps.c1.outputs.v }} ${{ steps.g.outputs.v }}" }
              e: { needs: d, run: "echo ${{ steps.c1.outputs.v }}" }
            """
        )
        #expect(races == ["step 'c2' reads steps.c1 but does not depend on 'c1'"])
    }
}
