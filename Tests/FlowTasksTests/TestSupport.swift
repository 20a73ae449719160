import Dispatch
import FlowTasks

/// A thread-safe record of things that happened, in order, for assertions.
final class Recorder<Element: Sendable>: Sendable {
    private let items = LockedBox<[Element]>([])

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

func makeQueue(_ name: String = #function) -> DispatchQueue {
    DispatchQueue(label: "test.\(name)")
}
