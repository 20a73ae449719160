/// When each step would start if every step took one unit of time: a step starts when its
/// needs have finished and its group has started; a group finishes with its last child. Steps
/// with the same start form a wave.
///
/// Computed as the longest path over start and finish events (Kahn's algorithm), so it is
/// linear and iterative: 100,000 chained steps neither take long nor overflow the stack.
struct StepSchedule {
    let order: [String]
    let waves: [[String]]

    init(steps: [Step]) {
        var position: [String: Int] = [:]
        for (offset, step) in steps.enumerated() where position[step.id] == nil {
            position[step.id] = offset
        }
        // Event 2i is step i's start, 2i+1 its finish.
        let count = steps.count * 2
        var successors: [[(event: Int, weight: Int)]] = Array(repeating: [], count: count)
        var incoming = Array(repeating: 0, count: count)
        func edge(_ from: Int, _ to: Int, _ weight: Int) {
            successors[from].append((to, weight))
            incoming[to] += 1
        }
        for (offset, step) in steps.enumerated() {
            edge(2 * offset, 2 * offset + 1, 1)
            for need in step.needs {
                if let needed = position[need] { edge(2 * needed + 1, 2 * offset, 0) }
            }
            if let parent = step.parent, let group = position[parent] {
                edge(2 * group, 2 * offset, 0)
                edge(2 * offset + 1, 2 * group + 1, 0)
            }
        }
        var time = Array(repeating: 0, count: count)
        var ready = (0..<count).filter { incoming[$0] == 0 }
        while let event = ready.popLast() {
            for (next, weight) in successors[event] {
                time[next] = max(time[next], time[event] + weight)
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        let starts = steps.indices.map { time[2 * $0] }
        let sorted = steps.indices.sorted { starts[$0] != starts[$1] ? starts[$0] < starts[$1] : $0 < $1 }
        self.order = sorted.map { steps[$0].id }
        var waves: [[String]] = []
        var current: Int?
        for offset in sorted {
            if starts[offset] != current {
                waves.append([])
                current = starts[offset]
            }
            waves[waves.count - 1].append(steps[offset].id)
        }
        self.waves = waves
    }
}
