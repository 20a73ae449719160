import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

/// Results known before a run (a resumed run) enter the scheduler through `prior`.
@Suite struct SchedulerPriorTests {
    @Test func aStepWithAPriorSuccessIsNotRunAndReleasesItsDependents() async throws {
        let fake = FakeSteps()
        let (records, events) = try await run(
            [
                PlannedStep(id: "login", work: fake.automatic(.success("fresh token"))),
                PlannedStep(id: "users", needs: ["login"], work: fake.automatic()),
            ],
            prior: ["login": StepRecord(id: "login", state: .succeeded, output: "earlier token")])
        #expect(!fake.started.contains("login"))
        #expect(records["login"]?.output == "earlier token")
        #expect(records["users"]?.state == .succeeded)
        #expect(events == ["start users", "succeeded users"])
    }

    @Test func aPriorFailureDecidesItsDependentsConditions() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run(
            [
                PlannedStep(id: "deploy", work: fake.automatic()),
                PlannedStep(id: "notify", needs: ["deploy"], work: fake.automatic()),
                PlannedStep(id: "alert", needs: ["deploy"], condition: .failure, work: fake.automatic()),
            ],
            prior: ["deploy": StepRecord(id: "deploy", state: .failed, error: TestFailure("earlier failure"))])
        #expect(records["deploy"]?.state == .failed)
        #expect(records["notify"]?.state == .skipped)
        #expect(records["alert"]?.state == .succeeded)
        #expect(fake.started == ["alert"])
    }

    @Test func aGroupIsResumedOnlyWithAllItsChildren() async throws {
        func plan(_ fake: FakeSteps) -> [PlannedStep<String>] {
            [
                PlannedStep(id: "mirror", work: .group(GroupPolicy(mode: .any), children: ["eu", "us"])),
                PlannedStep(id: "eu", group: "mirror", work: fake.automatic()),
                PlannedStep(id: "us", group: "mirror", work: fake.automatic()),
                PlannedStep(id: "after", needs: ["mirror"], work: fake.automatic()),
            ]
        }
        let whole: [String: StepRecord<String>] = [
            "mirror": StepRecord(id: "mirror", state: .succeeded, winner: "us"),
            "eu": StepRecord(id: "eu", state: .cancelled),
            "us": StepRecord(id: "us", state: .succeeded, output: "fast"),
        ]
        let fake = FakeSteps()
        let (resumed, _) = try await run(plan(fake), prior: whole)
        #expect(resumed["mirror"]?.winner == "us")
        #expect(resumed["eu"]?.state == .cancelled)
        #expect(fake.started == ["after"])

        // Without its children's records the group runs again, children and all.
        let again = FakeSteps()
        let (records, _) = try await run(plan(again), prior: ["mirror": whole["mirror"]!])
        #expect(records["mirror"]?.state == .succeeded)
        #expect(records["after"]?.state == .succeeded)
        #expect(again.started.contains("eu") || again.started.contains("us"))
    }
}

@Suite struct ConditionRuleTests {
    /// The one rule for status functions, as `if:` expressions and the scheduler both read it.
    @Test func statusFunctionsFollowTheFacts() {
        let failedUpstream = ConditionFacts(needsSucceeded: false, upstreamFailed: true, runCancelled: false)
        #expect(!failedUpstream.holds(.success))
        #expect(failedUpstream.holds(.failure))
        #expect(failedUpstream.holds(.always))
        #expect(!failedUpstream.holds(.cancelled))
        let interrupted = ConditionFacts(needsSucceeded: true, upstreamFailed: true, runCancelled: true)
        #expect(!interrupted.holds(.success))
        #expect(!interrupted.holds(.failure))
        #expect(interrupted.holds(.cancelled))
    }
}
