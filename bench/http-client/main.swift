// flow's side of bench/http: times GETs with FlowHTTP and prints the seconds taken.
//
//   BenchHTTP parallel URL COUNT CONCURRENCY   COUNT GETs of URL?i=N, CONCURRENCY in flight
//   BenchHTTP sequential URL COUNT             COUNT GETs one after the other
//
// Every response must be a 200, or the run fails: a fast wrong answer is not a result.

import Dispatch
import FlowHTTP
import FlowTasks
import Foundation

/// Why a run failed.
struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// Keeps `concurrency` requests in flight until `count` have finished.
final class ParallelRun: Sendable {
    private struct State {
        var started = 0
        var finished = 0
        var failure: String?
    }

    private let client: HTTPClient
    private let url: String
    private let count: Int
    private let state = LockedBox(State())
    private let done = DispatchSemaphore(value: 0)

    init(client: HTTPClient, url: String, count: Int) {
        self.client = client
        self.url = url
        self.count = count
    }

    /// Runs to the end; the calling (main) thread waits.
    func run(concurrency: Int) throws {
        for _ in 0..<min(concurrency, count) { startNext() }
        done.wait()
        if let failure = state.withLock({ $0.failure }) { throw BenchFailure(description: failure) }
    }

    private func startNext() {
        let index: Int? = state.withLock { state in
            guard state.started < count else { return nil }
            state.started += 1
            return state.started
        }
        guard let index else { return }
        client.execute(HTTPRequest(url: "\(url)?i=\(index)")).whenComplete { result in
            let finished: Bool = self.state.withLock { state in
                switch result {
                case .success(let response) where response.status != 200:
                    state.failure = state.failure ?? "status \(response.status) for request \(index)"
                case .failure(let error):
                    state.failure = state.failure ?? "request \(index): \(error)"
                default:
                    break
                }
                state.finished += 1
                return state.finished == self.count
            }
            if finished { self.done.signal() } else { self.startNext() }
        }
    }
}

/// Sends `count` GETs one after the other, each from the previous one's completion callback,
/// as chained workflow steps do. The callback is light and its state locked, so it lets the
/// client run it on its own thread (`whenCompleteInline`).
func sequential(client: HTTPClient, url: String, count: Int) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedBox<String?>(nil)
    @Sendable func send(_ index: Int) {
        client.execute(HTTPRequest(url: "\(url)?i=\(index)")).whenCompleteInline { result in
            switch result {
            case .success(let response) where response.status == 200:
                if index < count {
                    send(index + 1)
                    return
                }
            case .success(let response):
                failure.withLock { $0 = "status \(response.status) for request \(index)" }
            case .failure(let error):
                failure.withLock { $0 = "request \(index): \(error)" }
            }
            done.signal()
        }
    }
    send(1)
    done.wait()
    if let failure = failure.withLock({ $0 }) { throw BenchFailure(description: failure) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]), count > 0 else {
    FileHandle.standardError.write(Data("usage: BenchHTTP parallel|sequential URL COUNT [CONCURRENCY]\n".utf8))
    exit(2)
}
let client = HTTPClient()
let clock = ContinuousClock()
do {
    let started = clock.now
    switch arguments[1] {
    case "parallel":
        let concurrency = arguments.count > 4 ? Int(arguments[4]) ?? 32 : 32
        try ParallelRun(client: client, url: arguments[2], count: count).run(concurrency: concurrency)
    case "sequential":
        try sequential(client: client, url: arguments[2], count: count)
    default:
        throw BenchFailure(description: "unknown mode '\(arguments[1])'")
    }
    let elapsed = clock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "%.4f", seconds))
} catch {
    FileHandle.standardError.write(Data("BenchHTTP: \(error)\n".utf8))
    exit(1)
}
client.shutdown()
