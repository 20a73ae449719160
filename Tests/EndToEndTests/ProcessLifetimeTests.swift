import FlowTestSupport
import Foundation
import Testing

/// No command outlives `flow run`, a flood of output neither fills flow's memory nor delays an
/// interrupt, and quitting at once still leaves a current report (issue 12, items 1, 2 and 4).
@Suite struct ProcessLifetimeTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-life-\(UUID())").path

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func write(_ yaml: String) throws -> String {
        let path = folder + "/flow.yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTimedOutCommandThatIgnoresSIGTERMIsKilledBeforeFlowExits() async throws {
        let file = try write(
            """
            version: 1
            steps:
              stubborn: { timeout: 1s, run: 'trap "" TERM; sleep 41 & echo $$ $! > \(folder)/pids; wait; wait' }
            """)
        let flow = try FlowChild(["run", file])
        let pids = await pids(in: folder + "/pids", count: 2)
        #expect(pids.count == 2)
        let code = await flow.exitCode(within: .seconds(60))
        // Looked at the moment flow has exited: nothing it started may be left.
        let survivors = pids.filter(isRunning)
        #expect(code == 1)
        #expect(survivors.isEmpty, "still running after flow exited: \(survivors)")
        #expect(flow.output.contains("[stubborn] failed"))
        survivors.forEach { kill($0, SIGKILL) }
    }

    @Test func anInterruptedCommandThatIgnoresSignalsIsKilledBeforeFlowExits() async throws {
        let file = try write(
            """
            version: 1
            steps:
              stubborn: { run: 'trap "" INT TERM; sleep 41 & echo $$ $! > \(folder)/pids; wait; wait' }
            """)
        let flow = try FlowChild(["run", file])
        let pids = await pids(in: folder + "/pids", count: 2)
        #expect(pids.count == 2)
        kill(flow.pid, SIGINT)
        let code = await flow.exitCode(within: .seconds(60))
        let survivors = pids.filter(isRunning)
        #expect(code == 130)
        #expect(survivors.isEmpty, "still running after flow exited: \(survivors)")
        survivors.forEach { kill($0, SIGKILL) }
    }

    @Test func whatASucceededStepLeftRunningIsKilledWhenTheStepEnds() async throws {
        // One background child keeps the step's output open, one does not; neither may hold the
        // step (or flow) up, nor outlive it.
        let file = try write(
            """
            version: 1
            steps:
              holds-output: { run: 'sleep 41 & echo $! > \(folder)/a' }
              detached: { run: 'sleep 42 > /dev/null 2>&1 & echo $! > \(folder)/b' }
              after:
                needs: [holds-output, detached]
                run: 'echo "$(cat \(folder)/a) $(cat \(folder)/b)"'
            """)
        let flow = try FlowChild(["run", file])
        let code = await flow.exitCode(within: .seconds(30))
        let pids = await pids(in: folder + "/a", count: 1) + pids(in: folder + "/b", count: 1)
        let survivors = pids.filter(isRunning)
        #expect(code == 0, "flow did not finish in time: \(flow.output)")
        #expect(pids.count == 2)
        #expect(survivors.isEmpty, "still running after flow exited: \(survivors)")
        survivors.forEach { kill($0, SIGKILL) }
    }

    @Test func aFloodOfLinesStaysBoundedInMemoryAndAnInterruptStopsIt() async throws {
        // 30 million empty lines, which flow prints as lines of about 40 bytes each, to a reader
        // that does not read at first (a terminal that cannot keep up): far more than flow gets
        // to print before the interrupt.
        let file = try write(
            """
            version: 1
            steps:
              flood: { run: 'touch \(folder)/started; head -c 30000000 /dev/zero | tr "\\0" "\\n"' }
            """)
        let flow = try FlowChild(["run", file], keepOutput: false, stdoutPause: .seconds(8))
        let started = await FlowChild.wait(for: .seconds(60)) {
            FileManager.default.fileExists(atPath: folder + "/started")
        }
        #expect(started)
        // Once the flood is under way, flow's memory must stop growing: what it holds is bounded
        // (about a MiB of each stream's lines), not the part of the flood it has not printed yet.
        try await Task.sleep(for: .seconds(1.5))
        let early = flow.peakMemory ?? 0
        try await Task.sleep(for: .seconds(3))
        let late = flow.peakMemory ?? 0
        #expect(early > 0 && late - early < 5_000_000, "peak memory grew from \(early) to \(late) bytes")
        let flowing = await FlowChild.wait(for: .seconds(120)) { flow.linesPrinted > 20_000 }
        #expect(flowing, "flow printed only \(flow.linesPrinted) lines")
        let printedBefore = flow.linesPrinted
        kill(flow.pid, SIGINT)
        let code = await flow.exitCode(within: .seconds(60))
        let printedAfter = flow.linesPrinted - printedBefore
        #expect(code == 130)
        #expect(flow.errors.contains("interrupted"))
        // What was already on its way when the interrupt came, not the rest of the flood.
        #expect(printedAfter < 100_000, "\(printedAfter) lines printed after the interrupt")
    }

    @Test func quittingAtOnceReplacesThePreviousReportWithTheRunAsItStood() async throws {
        let report = folder + "/report.json"
        try "stale report of an earlier run".write(toFile: report, atomically: true, encoding: .utf8)
        let file = try write(
            """
            version: 1
            steps:
              work: { run: 'sleep 30' }
              cleanup: { needs: work, if: always(), run: 'sleep 40 & echo $! > \(folder)/pids; wait' }
            """)
        let flow = try FlowChild(["run", file, "--report", "json", report])
        _ = await FlowChild.wait(for: .seconds(30)) { flow.output.contains("[work] started") }
        kill(flow.pid, SIGINT)
        let pids = await pids(in: folder + "/pids", count: 1)
        #expect(pids.count == 1)
        kill(flow.pid, SIGINT)
        let code = await flow.exitCode(within: .seconds(30))
        let survivors = pids.filter(isRunning)
        #expect(code == 130)
        #expect(survivors.isEmpty)
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        #expect(text.contains(#""outcome" : "cancelled""#), "report: \(text)")
        #expect(text.contains(#""state" : "running""#))
        #expect(flow.errors.contains("quit at once") && flow.errors.contains(report))
        survivors.forEach { kill($0, SIGKILL) }
    }

    @Test func killNineOfFlowTakesItsCommandsAndServicesWithIt() async throws {
        // A service (the sandbox, through a shell that records its pid) and a command with a
        // background child, each in a process group of its own that SIGKILL of flow never reaches.
        let file = try write(
            """
            version: 1
            services:
              sandbox:
                run: 'echo $$ > \(folder)/service; exec "${{ flow.executable }}" sandbox --port "${{ services.sandbox.port }}"'
                ready: { http: "${{ services.sandbox.url }}/health" }
            steps:
              long: { run: 'sleep 43 & echo $$ $! > \(folder)/pids; wait' }
            """)
        let flow = try FlowChild(["run", file, "--no-journal"])
        let children = await pids(in: folder + "/pids", count: 2) + pids(in: folder + "/service", count: 1)
        #expect(children.count == 3, "\(flow.output)\(flow.errors)")
        #expect(children.allSatisfy(isRunning))
        kill(flow.pid, SIGKILL)
        _ = await flow.exitCode(within: .seconds(10))
        // The service gets SIGTERM and the grace period, then SIGKILL.
        let gone = await FlowChild.wait(for: .seconds(10)) { !children.contains(where: isRunning) }
        let survivors = children.filter(isRunning)
        #expect(gone, "still running after flow was killed: \(survivors)")
        survivors.forEach { kill($0, SIGKILL) }
    }
}
