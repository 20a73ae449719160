import FlowKit
import Foundation

// An app that embeds flow: `FlowKitExample --api http://127.0.0.1:8089` runs the seeds' scenario
// against `flow sandbox` in-process (no flow binary involved) and prints what happens.

let arguments = CommandLine.arguments
guard let apiFlag = arguments.firstIndex(of: "--api"), apiFlag + 1 < arguments.count else {
    FileHandle.standardError.write(Data("usage: FlowKitExample --api URL\n".utf8))
    exit(64)
}
let api = arguments[apiFlag + 1]

// The file to upload: 350 KiB, so four chunks of 100 KiB.
let folder = NSTemporaryDirectory() + "flowkit-example-\(ProcessInfo.processInfo.processIdentifier)"
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
let file = folder + "/artifact.bin"
try Data(repeating: 0x2A, count: 350 * 1024).write(to: URL(fileURLWithPath: file))

let workflow: FlowWorkflow
do {
    workflow = try FlowWorkflow(yaml: Scenario.yaml, baseFolder: folder, fileName: "scenario.yaml")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(2)
}

var options = FlowRunOptions()
options.inputs = ["api": api, "file": file]
options.secrets = .values(["PASSWORD": "s3cret"])
// The host step: users are imported before the reports that point at them, in the app's own code.
options.hostSteps.register("prepare-import") { call in
    guard case .array(let users)? = call.inputs["users"], case .array(let reports)? = call.inputs["reports"] else {
        throw ExampleError(message: "prepare-import needs the users and the reports")
    }
    print("prepare-import: \(users.count) users, \(reports.count) reports")
    return ["users": .array(users), "reports": .array(reports), "count": .number(Double(users.count))]
}
let run = try workflow.start(options)

var bar = ProgressBar()
for await event in run.events {
    switch event {
    case .stepStarted(let step):
        print("started \(step)")
    case .progress(let step, _, let bytes, let total?):
        if let line = bar.line(step: step, done: bytes, total: total) { print(line) }
    case .stepFinished(let result):
        print("\(result.step): \(result.state.rawValue)")
    case .runFinished(let outcome):
        // The race's winner is the mirror that succeeded; the other failed or was cancelled.
        for mirror in ["eu", "us"] where outcome.steps[mirror]?.state == .succeeded { print("mirror won: \(mirror)") }
        for failure in outcome.failures { print("failure: \(failure)") }
    default:
        break
    }
}
let outcome = await run.outcome
print("run \(outcome.state.rawValue)")
exit(outcome.state == .succeeded ? 0 : 1)

/// Why the example's host step refused its inputs.
struct ExampleError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
