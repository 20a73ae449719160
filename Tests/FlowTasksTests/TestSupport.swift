import Dispatch
import FlowTasks
import Synchronization

/// A thread-safe record of things that happened, in order, for assertions.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}

/// A unit of fake work: a promise whose cancellation is counted, as a transfer's abort would be.
struct FakeWork<Value: Sendable>: Sendable {
    let promise: Promise<Value>
    let cancellations: Recorder<Int>

    init(on queue: DispatchQueue) {
        promise = Promise(on: queue)
        let cancellations = Recorder<Int>()
        self.cancellations = cancellations
        promise.onCancel { cancellations.append(1) }
    }

    var future: Future<Value> { promise.future }
    var wasCancelled: Bool { cancellations.count == 1 }
}

struct TestError: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String) { self.name = name }
    var description: String { name }
}

/// Waits on a plain thread (not a Dispatch worker) until `condition` holds or `seconds` pass.
func eventually(within seconds: Double = 5, _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}

func makeQueue(_ name: String = #function) -> DispatchQueue {
    DispatchQueue(label: "test.\(name)")
}
