// The journal's workload program: bench/journal/run times it, and FlowJournalTests run it as a
// second process writing the same journal.
//
//   BenchJournal bench DIR STEPS            records STEPS stepStarted + STEPS stepFinished and prints
//                                           "record=S flush=S cpu=S batches=N": the caller-side time of
//                                           the record calls, the time until flushAndWait returned, the
//                                           CPU time of all threads meanwhile, transactions committed
//   BenchJournal write DIR FILE STEPS [hang] begins a run of FILE, records STEPS steps (started and
//                                           finished), flushes, prints "run ID"; then ends the run
//                                           as succeeded, or with `hang` prints "ready" and sleeps
//                                           (a test kills it)
import FlowJournal
import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("BenchJournal: \(message)\n".utf8))
    exit(2)
}

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The changes of one step: started, then finished with small outputs, as the engine records them.
func stepChanges(run: String, index: Int) -> [JournalChange] {
    let step = "step-\(index)"
    let now = Date()
    return [
        .stepStarted(run: run, step: step, item: nil, attempt: 1, at: now),
        .stepFinished(
            run: run, step: step, item: nil, state: .succeeded, attempts: 1, startedAt: now, finishedAt: now,
            outputs: .json(#"{"index":\#(index),"status":200}"#), error: nil),
    ]
}

/// CPU time of the whole process (every thread: the caller's and the journal's), in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func begin(_ journal: Journal, file: String, steps: Int) throws -> String {
    var hashes: [String: String] = [:]
    for index in 0..<steps { hashes["step-\(index)"] = String(index, radix: 16) }
    return try journal.beginRun(
        NewRun(file: file, fileHash: "bench", stepHashes: hashes, inputs: [:], startedAt: Date()))
}

let arguments = CommandLine.arguments.dropFirst()
guard let mode = arguments.first, arguments.count >= 3 else { fail("usage: see bench/journal-writer/main.swift") }
let directory = arguments[arguments.startIndex + 1]
do {
    let journal = try Journal.open(stateDirectory: directory)
    switch mode {
    case "bench":
        guard let steps = Int(arguments[arguments.startIndex + 2]) else { fail("STEPS is not a number") }
        let run = try begin(journal, file: directory + "/bench.yaml", steps: steps)
        // Made before the clock starts: the engine builds these values (names, outputs' JSON) anyway;
        // what is timed is handing them to the journal.
        let changes = (0..<steps).flatMap { stepChanges(run: run, index: $0) }
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        for change in changes { journal.record(change) }
        let recorded = ContinuousClock.now
        try journal.flushAndWait()
        let flushed = ContinuousClock.now
        let cpu = processCPUSeconds() - cpuBefore
        journal.record(.runFinished(run: run, state: .succeeded, at: Date()))
        journal.close()
        let seconds = { (duration: Duration) in
            Double(duration.components.attoseconds) / 1e18 + Double(duration.components.seconds)
        }
        say(
            String(
                format: "record=%.6f flush=%.6f cpu=%.6f batches=%d", seconds(recorded - start),
                seconds(flushed - start), cpu, journal.transactionsCommitted))
    case "write":
        guard arguments.count >= 4, let steps = Int(arguments[arguments.startIndex + 3]) else {
            fail("usage: write DIR FILE STEPS [hang]")
        }
        let file = arguments[arguments.startIndex + 2]
        let run = try begin(journal, file: file, steps: steps)
        for index in 0..<steps {
            for change in stepChanges(run: run, index: index) { journal.record(change) }
        }
        try journal.flushAndWait()
        say("run \(run)")
        if arguments.count > 4 {
            say("ready")
            while true { sleep(60) }
        }
        journal.record(.runFinished(run: run, state: .succeeded, at: Date()))
        try journal.flushAndWait()
        journal.close()
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(error)")
}
