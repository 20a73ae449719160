import Dispatch
import FlowEngine
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct SchedulerOrderTests {
    @Test func aStepStartsOnlyAfterItsNeedsFinished() async throws {
        let fake = FakeSteps()
        let (records, events) = try await run([
            PlannedStep(id: "login", work: fake.automatic()),
            PlannedStep(id: "users", needs: ["login"], work: fake.automatic()),
            PlannedStep(id: "reports", needs: ["login"], work: fake.automatic()),
            PlannedStep(id: "import", needs: ["users", "reports"], work: fake.automatic()),
        ])
        #expect(records.values.allSatisfy { $0.state == .succeeded })
        let index = { (text: String) in events.firstIndex(of: text) ?? -1 }
        #expect(index("succeeded login") < index("start users"))
        #expect(index("succeeded login") < index("start reports"))
        #expect(index("succeeded users") < index("start import"))
        #expect(index("succeeded reports") < index("start import"))
    }

    @Test func independentStepsRunAtTheSameTime() async throws {
        let fake = FakeSteps()
        _ = try await run(
            [
                PlannedStep(id: "a", work: fake.manual()),
                PlannedStep(id: "b", work: fake.manual()),
            ],
            whileRunning: { _ in
                // Both must be in flight before either is finished.
                #expect(await eventually { fake.started.count == 2 })
                fake.succeed("a")
                fake.succeed("b")
            })
        #expect(fake.mostAtOnce == 2)
    }

    @Test func concurrencyCapsTheLeavesInFlight() async throws {
        let fake = FakeSteps()
        let steps = (0..<12).map { PlannedStep(id: "s\($0)", work: fake.automatic(after: .milliseconds(5))) }
        let (records, _) = try await run(steps, concurrency: 3)
        #expect(records.values.allSatisfy { $0.state == .succeeded })
        #expect(fake.mostAtOnce == 3)
    }

    @Test func anEmptyPlanFinishesAtOnce() async throws {
        let (records, events) = try await run([])
        #expect(records.isEmpty)
        #expect(events.isEmpty)
    }

    @Test func fiveThousandStepDAGRunsToTheEnd() async throws {
        let fake = FakeSteps()
        let steps = (0..<5_000).map { index in
            PlannedStep(
                id: "s\(index)", needs: index < 10 ? [] : ["s\(index - 10)", "s\(index / 2)"].uniqued(),
                work: fake.automatic())
        }
        let (records, _) = try await run(steps, concurrency: 16)
        #expect(records.count == 5_000)
        #expect(records.values.allSatisfy { $0.state == .succeeded })
    }
}

@Suite struct SchedulerConditionTests {
    @Test func aFailedNeedSkipsDefaultDependentsAndRunsFailureAndAlwaysOnes() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            PlannedStep(id: "build", work: fake.automatic(.failure(TestFailure("compile error")))),
            PlannedStep(id: "deploy", needs: ["build"], work: fake.automatic()),
            PlannedStep(id: "after-deploy", needs: ["deploy"], work: fake.automatic()),
            PlannedStep(id: "alert", needs: ["deploy"], condition: .failure, work: fake.automatic()),
            PlannedStep(id: "cleanup", needs: ["build"], condition: .always, work: fake.automatic()),
            PlannedStep(id: "on-cancel", needs: ["build"], condition: .cancelled, work: fake.automatic()),
        ])
        #expect(records["build"]?.state == .failed)
        #expect((records["build"]?.error as? TestFailure)?.message == "compile error")
        #expect(records["deploy"]?.state == .skipped)
        #expect(records["after-deploy"]?.state == .skipped)
        // failure() sees a failure anywhere upstream, through the skipped step.
        #expect(records["alert"]?.state == .succeeded)
        #expect(records["cleanup"]?.state == .succeeded)
        #expect(records["on-cancel"]?.state == .skipped)
        #expect(!fake.started.contains("deploy"))
    }

    @Test func continueOnErrorCountsAsSuccessForDependents() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            PlannedStep(id: "flaky", continueOnError: true, work: fake.automatic(.failure(TestFailure("503")))),
            PlannedStep(id: "next", needs: ["flaky"], work: fake.automatic()),
        ])
        #expect(records["flaky"]?.state == .failed)
        #expect(records["flaky"]?.failureIgnored == true)
        #expect(records["next"]?.state == .succeeded)
    }

    @Test func aCustomConditionDecidesFromTheFacts() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            PlannedStep(id: "a", work: fake.automatic()),
            PlannedStep(id: "never", needs: ["a"], condition: .custom { _ in false }, work: fake.automatic()),
            PlannedStep(id: "yes", needs: ["a"], condition: .custom { $0.needsSucceeded }, work: fake.automatic()),
        ])
        #expect(records["never"]?.state == .skipped)
        #expect(records["yes"]?.state == .succeeded)
    }

    @Test func aTimeoutFailsTheStepAndStopsItsWork() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run([
            PlannedStep(id: "slow", timeout: .milliseconds(30), work: fake.manual())
        ])
        #expect(records["slow"]?.state == .failed)
        #expect(records["slow"]?.error as? FutureError == .timedOut(after: .milliseconds(30)))
        #expect(fake.cancelled == ["slow"])
    }

    @Test func interruptingCancelsRunningAndWaitingStepsButRunsAlwaysSteps() async throws {
        let fake = FakeSteps()
        let (records, _) = try await run(
            [
                PlannedStep(id: "long", work: fake.manual()),
                PlannedStep(id: "after", needs: ["long"], work: fake.automatic()),
                PlannedStep(id: "cleanup", needs: ["long"], condition: .always, work: fake.automatic()),
                PlannedStep(id: "on-cancel", needs: ["long"], condition: .cancelled, work: fake.automatic()),
            ],
            whileRunning: { scheduler in
                #expect(await eventually { fake.started == ["long"] })
                scheduler.cancel()
            })
        #expect(records["long"]?.state == .cancelled)
        #expect(fake.cancelled == ["long"])
        #expect(records["after"]?.state == .cancelled)
        #expect(records["cleanup"]?.state == .succeeded)
        #expect(records["on-cancel"]?.state == .succeeded)
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
