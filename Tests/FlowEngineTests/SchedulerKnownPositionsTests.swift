import FlowDSL
import Testing

@testable import FlowEngine

/// A workflow run's scheduler takes the positions of ids, needs and groups from the checked
/// workflow instead of hashing them again (issue 32): the graph must be the one it builds itself.
@Suite struct SchedulerKnownPositionsTests {
    static let source = """
        version: 1
        steps:
          setup: { sleep: 0s }
          fan:
            needs: setup
            parallel: all
            steps:
              left: { sleep: 0s }
              right: { needs: left, sleep: 0s }
          after: { needs: [fan, setup], sleep: 0s }
          alone: { sleep: 0s }
          last: { needs: [after, alone, setup], sleep: 0s }
        """

    /// The plan of every step of `workflow`, in `allSteps` order, as `WorkflowRun` makes it.
    static func plan(_ steps: [Step]) -> [PlannedStep<String>] {
        steps.map { step in
            PlannedStep<String>(
                id: step.id, needs: step.needs, group: step.parent,
                work: .leaf { start in .succeeded("", on: start.queue) })
        }
    }

    /// Each node's group, needs in the plan, waiting count and dependents, by id.
    static func shape(_ graph: SchedulerGraph<String>) -> [String: String] {
        var shape: [String: String] = [:]
        for node in graph.nodes {
            let group = node.group.map { graph.nodes[$0].step.id } ?? "-"
            let dependents = graph.dependents(of: node.position).map { graph.nodes[$0].step.id }
            shape[node.step.id] =
                "group \(group) needs \(node.needsInPlan) waiting \(node.waitingOn) dependents \(dependents)"
        }
        return shape
    }

    @Test func theWorkflowsPositionsGiveTheGraphTheSchedulerBuildsItself() throws {
        let workflow = try #require(WorkflowLoader.check(source: Self.source, file: "w.yaml").workflow)
        let known = try #require(workflow.stepPositions)
        let steps = Self.plan(workflow.allSteps)
        let built = SchedulerGraph(steps)
        let reused = SchedulerGraph(steps, known: known)
        #expect(reused.positions == built.positions)
        #expect(Self.shape(reused) == Self.shape(built))
        // The shape itself, so that two graphs wrong in the same way do not pass.
        let shape = Self.shape(built)
        #expect(shape["left"] == "group fan needs 0 waiting 0 dependents [\"right\"]")
        #expect(shape["fan"] == "group - needs 1 waiting 1 dependents [\"after\"]")
        #expect(shape["setup"] == "group - needs 0 waiting 0 dependents [\"fan\", \"after\", \"last\"]")
        #expect(shape["last"] == "group - needs 3 waiting 3 dependents []")
    }

    /// A plan that is not the workflow's steps in order (a `for-each` group's children left out,
    /// or another order) is not described by them: the scheduler hashes its own ids.
    @Test func aPlanOfOtherStepsIsNotGivenTheWorkflowsPositions() throws {
        let workflow = try #require(WorkflowLoader.check(source: Self.source, file: "w.yaml").workflow)
        let known = try #require(workflow.stepPositions)
        let reversed = Self.plan(workflow.allSteps.reversed())
        #expect(Self.shape(SchedulerGraph(reversed, known: known)) == Self.shape(SchedulerGraph(reversed)))
        #expect(SchedulerGraph(reversed, known: known).positions["last"] == 0)
        let fewer = Self.plan(Array(workflow.allSteps.dropLast()))
        #expect(Self.shape(SchedulerGraph(fewer, known: known)) == Self.shape(SchedulerGraph(fewer)))
        #expect(SchedulerGraph(fewer, known: known).positions["last"] == nil)
    }
}

/// A run's records counted in one pass (issue 32): what the outcome, the summary's counts and
/// the failed steps' list read.
@Suite struct RecordTallyTests {
    static let here = SourceLocation(file: "w.yaml", line: 1, column: 1)

    static func items(_ states: [StepState]) -> StepResult {
        StepResult(
            result: .object([:]), outputs: [:], attempts: 1,
            items: states.map { ItemResult(item: .string("x"), state: $0, outputs: [:], error: nil, attempts: 1) })
    }

    @Test func countsStatesItemsAndFailures() {
        let records: [String: StepRecord<StepResult>] = [
            "a": StepRecord(id: "a", state: .succeeded, output: .zeroWait),
            "b": StepRecord(id: "b", state: .succeeded, output: Self.items([.succeeded, .succeeded, .failed])),
            "c": StepRecord(
                id: "c", state: .failed,
                error: ForEachFailure(message: "m", location: Self.here, partial: Self.items([.failed, .skipped])),
                failureIgnored: true),
            "d": StepRecord(id: "d", state: .skipped),
        ]
        let tally = RecordTally(records)
        #expect(tally.count(.succeeded) == 2)
        #expect(tally.count(.failed) == 1)
        #expect(tally.count(.skipped) == 1)
        #expect(tally.count(.cancelled) == 0)
        #expect(tally.items == [.succeeded: 2, .failed: 2, .skipped: 1])
        #expect(tally.someFailed)
        // The one failure is ignored (`continue-on-error`) and nothing was cancelled.
        #expect(!tally.someFailedOrCancelled)
    }

    @Test func aFailureNotIgnoredOrACancellationCanFailTheRun() {
        let failed = RecordTally(["a": StepRecord(id: "a", state: .failed, error: StepError("x", at: Self.here))])
        #expect(failed.someFailed && failed.someFailedOrCancelled)
        let cancelled = RecordTally(["a": StepRecord(id: "a", state: .cancelled)])
        #expect(!cancelled.someFailed && cancelled.someFailedOrCancelled)
        let none = RecordTally([:])
        #expect(!none.someFailed && !none.someFailedOrCancelled && none.items.isEmpty && none.count(.succeeded) == 0)
    }
}
