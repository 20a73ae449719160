// bench/tasks — what a FlowTasks hop costs next to a bare Dispatch hop, measured in the same run.
// Build and run with `bench/tasks.sh` (release mode). Prints medians over several rounds.
import Dispatch
import FlowTasks
import Foundation

let settings = ProcessInfo.processInfo.environment
let hops = settings["BENCH_HOPS"].flatMap(Int.init) ?? 100_000
let combinatorInputs = 1_000
let combinatorRounds = settings["BENCH_COMBINATOR_ROUNDS"].flatMap(Int.init) ?? 50
let rounds = settings["BENCH_ROUNDS"].flatMap(Int.init) ?? 7

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// `hops` blocks on a serial queue, each submitting the next: the floor any future hop pays.
func bareDispatchHop() -> Double {
    let queue = DispatchQueue(label: "bench.bare")
    let done = DispatchSemaphore(value: 0)
    let start = now()
    @Sendable func step(_ left: Int) {
        if left == 0 {
            done.signal()
            return
        }
        queue.async { step(left - 1) }
    }
    queue.async { step(hops) }
    done.wait()
    return Double(now() - start) / 1000 / Double(hops)
}

/// A chain of `hops` maps, built and then run to the end.
func mapHop() throws -> (build: Double, run: Double) {
    let queue = DispatchQueue(label: "bench.map")
    let start = now()
    let first = Promise<Int>(on: queue)
    var future = first.future
    for _ in 0..<hops { future = future.map { $0 &+ 1 } }
    let built = now()
    first.succeed(0)
    _ = try future.wait()
    return (Double(built - start) / 1000 / Double(hops), Double(now() - built) / 1000 / Double(hops))
}

/// A chain of `hops` flatMaps, each returning an already-completed future.
func flatMapHop() throws -> (build: Double, run: Double) {
    let queue = DispatchQueue(label: "bench.flatMap")
    let start = now()
    let first = Promise<Int>(on: queue)
    var future = first.future
    for _ in 0..<hops { future = future.flatMap { Future.succeeded($0 &+ 1, on: queue) } }
    let built = now()
    first.succeed(0)
    _ = try future.wait()
    return (Double(built - start) / 1000 / Double(hops), Double(now() - built) / 1000 / Double(hops))
}

/// `all` or `any` over `combinatorInputs` promises completed from another queue; µs per combinator.
func combinator(_ kind: String) throws -> Double {
    let queue = DispatchQueue(label: "bench.\(kind)")
    let producer = DispatchQueue(label: "bench.producer")
    var total: UInt64 = 0
    for _ in 0..<combinatorRounds {
        let start = now()
        let promises = (0..<combinatorInputs).map { _ in Promise<Int>(on: queue) }
        let futures = promises.map(\.future)
        producer.async {
            for (index, promise) in promises.enumerated() { promise.succeed(index) }
        }
        if kind == "all" {
            _ = try Future.all(futures, on: queue).wait()
        } else {
            _ = try Future.any(futures, on: queue).wait()
        }
        total += now() - start
    }
    return Double(total) / 1000 / Double(combinatorRounds)
}

var bare: [Double] = []
var maps: [(build: Double, run: Double)] = []
var flatMaps: [(build: Double, run: Double)] = []
var alls: [Double] = []
var anys: [Double] = []
for _ in 0..<rounds {
    bare.append(bareDispatchHop())
    maps.append(try mapHop())
    flatMaps.append(try flatMapHop())
    alls.append(try combinator("all"))
    anys.append(try combinator("any"))
}

let bareHop = median(bare)
func row(_ name: String, _ value: Double, perHop: Bool) -> String {
    let ratio = perHop ? String(format: "%6.2f×", value / bareHop) : "       "
    let label = name.padding(toLength: 32, withPad: " ", startingAt: 0)
    return label + String(format: "%10.3f µs  ", value) + ratio
}
print("FlowTasks hops, median of \(rounds) rounds (\(hops) hops a chain; \(combinatorInputs) inputs a combinator)")
print(row("bare DispatchQueue.async hop", bareHop, perHop: true))
print(row("map hop (run)", median(maps.map(\.run)), perHop: true))
print(row("map link (build)", median(maps.map(\.build)), perHop: true))
print(row("map link + hop", median(maps.map { $0.build + $0.run }), perHop: true))
print(row("flatMap hop (run)", median(flatMaps.map(\.run)), perHop: true))
print(row("flatMap link (build)", median(flatMaps.map(\.build)), perHop: true))
print(row("flatMap link + hop", median(flatMaps.map { $0.build + $0.run }), perHop: true))
print(row("all over 1,000 futures", median(alls), perHop: false))
print(row("any over 1,000 futures", median(anys), perHop: false))
print(String(format: "per input: all %.3f µs, any %.3f µs", median(alls) / 1000, median(anys) / 1000))
print("goal: < 1 µs a hop and within 4× of the bare Dispatch hop")
