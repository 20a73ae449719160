// bench/flowkit's in-process side: runs a workflow through FlowKit and reads every event, as an
// app drawing progress would; prints the wall time from load to outcome, in seconds.
import FlowKit
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: BenchFlowKit FILE\n".utf8))
    exit(2)
}
let start = ContinuousClock.now
do {
    let workflow = try FlowWorkflow(contentsOf: arguments[1])
    let loaded = ContinuousClock.now - start
    let run = try workflow.start()
    var events = 0
    // FLOWKIT_NO_EVENTS=1: the outcome alone, to tell the events' cost from the run's.
    if ProcessInfo.processInfo.environment["FLOWKIT_NO_EVENTS"] == nil {
        for await _ in run.events { events += 1 }
    }
    let outcome = await run.outcome
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "%.4f %d %@ (loaded in %@)", seconds, events, outcome.state.rawValue, "\(loaded)"))
    exit(outcome.state == .succeeded ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}
