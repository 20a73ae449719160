import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct SchedulerGroupTests {
    private func group(
        _ id: String, _ policy: GroupPolicy, children: [String], needs: [String] = []
    ) -> PlannedStep<String> {
        PlannedStep(id: id, needs: needs, work: .group(policy, children: children))
    }

    @Test func anyGroupTakesTheFirstSuccessAndCancelsTheRest() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("mirror", GroupPolicy(mode: .any), children: ["eu", "us", "asia"]),
            PlannedStep(id: "eu", group: "mirror", work: fake.automatic(.failure(TestFailure("502")))),
            PlannedStep(id: "us", group: "mirror", work: fake.automatic(.success("us data"), after: .milliseconds(20))),
            PlannedStep(id: "asia", group: "mirror", work: fake.manual()),
            PlannedStep(id: "use", needs: ["mirror"], work: fake.automatic()),
        ])
        #expect(records["mirror"]?.state == .succeeded)
        #expect(records["mirror"]?.winner == "us")
        #expect(records["eu"]?.state == .failed)
        #expect(records["us"]?.state == .succeeded)
        #expect(records["asia"]?.state == .cancelled)
        #expect(fake.cancelled == ["asia"])
        #expect(records["use"]?.state == .succeeded)
    }

    @Test func aStepAfterAGroupWhoseChildrenAllSucceededStarts() async throws {
        // Regression: the group's end released its dependent, but nothing started it.
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("notify", GroupPolicy(mode: .all), children: ["mail", "chat"]),
            PlannedStep(id: "mail", group: "notify", work: fake.automatic(.success("sent"))),
            PlannedStep(id: "chat", group: "notify", work: fake.automatic(.success("posted"))),
            PlannedStep(id: "cleanup", needs: ["notify"], condition: .always, work: fake.automatic()),
            PlannedStep(id: "after", needs: ["notify"], work: fake.automatic()),
        ])
        #expect(records["notify"]?.state == .succeeded)
        #expect(records["cleanup"]?.state == .succeeded)
        #expect(records["after"]?.state == .succeeded)
    }

    @Test func anyGroupFailsWithEveryChildsErrorWhenAllFail() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("mirror", GroupPolicy(mode: .any), children: ["eu", "us"]),
            PlannedStep(id: "eu", group: "mirror", work: fake.automatic(.failure(TestFailure("502")))),
            PlannedStep(id: "us", group: "mirror", work: fake.automatic(.failure(TestFailure("timeout")))),
            PlannedStep(id: "use", needs: ["mirror"], work: fake.automatic()),
        ])
        #expect(records["mirror"]?.state == .failed)
        let failure = try #require(records["mirror"]?.error as? GroupFailure)
        #expect(failure.failures.map(\.id) == ["eu", "us"])
        #expect(
            failure.description
                == "group 'mirror' (parallel: any) failed: every child failed: 'eu': 502; 'us': timeout")
        #expect(records["use"]?.state == .skipped)
    }

    @Test func allGroupCancelsRunningSiblingsOnTheFirstFailure() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("notify", GroupPolicy(mode: .all), children: ["mail", "chat", "pager"]),
            PlannedStep(id: "mail", group: "notify", work: fake.automatic(.success("sent"))),
            PlannedStep(
                id: "chat", group: "notify",
                work: fake.automatic(.failure(TestFailure("403")), after: .milliseconds(10))),
            PlannedStep(id: "pager", group: "notify", work: fake.manual()),
        ])
        #expect(records["notify"]?.state == .failed)
        let failure = try #require(records["notify"]?.error as? GroupFailure)
        #expect(failure.description == "group 'notify' (parallel: all) failed: 'chat': 403")
        #expect(records["pager"]?.state == .cancelled)
        #expect(fake.cancelled == ["pager"])
        #expect(records["mail"]?.state == .succeeded)
    }

    @Test func allGroupWithoutFailFastLetsEveryChildFinish() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("checks", GroupPolicy(mode: .all, failFast: false), children: ["a", "b", "c"]),
            PlannedStep(id: "a", group: "checks", work: fake.automatic(.failure(TestFailure("a broke")))),
            PlannedStep(id: "b", group: "checks", work: fake.automatic(after: .milliseconds(20))),
            PlannedStep(
                id: "c", group: "checks",
                work: fake.automatic(.failure(TestFailure("c broke")), after: .milliseconds(10))),
        ])
        #expect(records["b"]?.state == .succeeded)
        #expect(fake.cancelled.isEmpty)
        let failure = try #require(records["checks"]?.error as? GroupFailure)
        #expect(failure.failures.map(\.id) == ["a", "c"])
    }

    @Test func atLeastNeedsKSuccesses() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("quorum", GroupPolicy(mode: .any, atLeast: 2), children: ["a", "b", "c"]),
            PlannedStep(id: "a", group: "quorum", work: fake.automatic()),
            PlannedStep(id: "b", group: "quorum", work: fake.automatic(.failure(TestFailure("no")))),
            PlannedStep(id: "c", group: "quorum", work: fake.automatic(after: .milliseconds(10))),
        ])
        #expect(records["quorum"]?.state == .succeeded)
    }

    @Test func childrenMayNeedSiblingsInsideTheGroup() async throws {
        let fake = FakeSteps()
        let (records, events) = try await run([
            PlannedStep(id: "setup", work: fake.automatic()),
            group("g", GroupPolicy(mode: .all), children: ["first", "second"], needs: ["setup"]),
            PlannedStep(id: "first", group: "g", work: fake.automatic()),
            PlannedStep(id: "second", needs: ["first"], group: "g", work: fake.automatic()),
        ])
        #expect(records.values.allSatisfy { $0.state == .succeeded })
        let index = { (text: String) in events.firstIndex(of: text) ?? -1 }
        #expect(index("succeeded setup") < index("start g"))
        #expect(index("start g") < index("start first"))
        #expect(index("succeeded first") < index("start second"))
        #expect(index("succeeded second") < index("succeeded g"))
    }

    @Test func aSkippedGroupSkipsItsChildren() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            PlannedStep(id: "gate", work: fake.automatic(.failure(TestFailure("closed")))),
            group("g", GroupPolicy(mode: .all), children: ["x"], needs: ["gate"]),
            PlannedStep(id: "x", group: "g", work: fake.automatic()),
        ])
        #expect(records["g"]?.state == .skipped)
        #expect(records["x"]?.state == .skipped)
        #expect(fake.started == ["gate"])
    }

    @Test func nestedGroupLosesAndIsCancelledWhole() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            group("race", GroupPolicy(mode: .any), children: ["fast", "inner"]),
            PlannedStep(id: "fast", group: "race", work: fake.automatic(after: .milliseconds(10))),
            PlannedStep(id: "inner", group: "race", work: .group(GroupPolicy(mode: .all), children: ["x", "y"])),
            PlannedStep(id: "x", group: "inner", work: fake.manual()),
            PlannedStep(id: "y", group: "inner", work: fake.manual()),
        ])
        #expect(records["race"]?.winner == "fast")
        #expect(Set(fake.cancelled) == ["x", "y"])
        #expect(records["x"]?.state == .cancelled)
        #expect(records["inner"]?.state == .cancelled)
    }
}
