/// The leaves whose needs are final and whose condition holds, waiting for a slot under the run's
/// concurrency limit, oldest first. Lives on the run's queue (see `Scheduler`).
struct ReadyQueue {
    /// Positions in the plan; those before `head` were taken.
    private var positions: [Int] = []
    private var head = 0

    /// Adds a leaf at the end.
    mutating func append(_ position: Int) {
        positions.append(position)
    }

    /// Takes the oldest leaf, if any; the storage is reused once everything was taken.
    mutating func next() -> Int? {
        guard head < positions.count else { return nil }
        let position = positions[head]
        head += 1
        if head == positions.count {
            positions.removeAll(keepingCapacity: true)
            head = 0
        }
        return position
    }

    /// Takes every leaf still waiting (an interrupted run cancels them).
    mutating func drain() -> ArraySlice<Int> {
        let waiting = positions[head...]
        positions = []
        head = 0
        return waiting
    }
}
