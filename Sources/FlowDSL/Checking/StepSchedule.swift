/// When each step would start if every step took one unit of time: a step starts when its
/// needs have finished and its group has started; a group finishes with its last child. Steps
/// with the same start form a wave.
///
/// Computed as the longest path over start and finish events (Kahn's algorithm), so it is
/// linear and iterative: 100,000 chained steps neither take long nor overflow the stack. Works
/// on the positions of the workflow's `StepTable` (no id hashed here) with flat edge arrays.
struct StepSchedule {
    let order: [String]
    let waves: [[String]]
    /// The wave of each step, by position in `steps`.
    let wave: [Int]

    init(steps: [Step], table: StepTable) {
        // Event 2i is step i's start, 2i+1 its finish. Besides each step's start → finish (one
        // unit), every edge weighs nothing: a need's finish → the start, a group's start → its
        // child's start, a child's finish → its group's finish.
        let count = steps.count * 2
        var outgoing = Array(repeating: 0, count: count + 1)
        var incoming = Array(repeating: 0, count: count)
        for offset in steps.indices {
            for needed in table.needs(offset) where needed >= 0 {
                outgoing[2 * needed + 1] += 1
                incoming[2 * offset] += 1
            }
            let group = table.parent[offset]
            if group >= 0 {
                outgoing[2 * group] += 1
                incoming[2 * offset] += 1
                outgoing[2 * offset + 1] += 1
                incoming[2 * group + 1] += 1
            }
            incoming[2 * offset + 1] += 1
        }
        // Prefix sums: the successors of event e are successors[start[e]..<start[e + 1]].
        var start = outgoing
        var total = 0
        for event in 0...count {
            let events = start[event]
            start[event] = total
            total += events
        }
        var fill = start
        var successors = Array(repeating: 0, count: total)
        for offset in steps.indices {
            for needed in table.needs(offset) where needed >= 0 {
                successors[fill[2 * needed + 1]] = 2 * offset
                fill[2 * needed + 1] += 1
            }
            let group = table.parent[offset]
            if group >= 0 {
                successors[fill[2 * group]] = 2 * offset
                fill[2 * group] += 1
                successors[fill[2 * offset + 1]] = 2 * group + 1
                fill[2 * offset + 1] += 1
            }
        }
        var time = Array(repeating: 0, count: count)
        var ready: [Int] = []
        ready.reserveCapacity(count)
        for event in 0..<count where incoming[event] == 0 { ready.append(event) }
        while let event = ready.popLast() {
            func reach(_ next: Int, _ weight: Int) {
                time[next] = max(time[next], time[event] + weight)
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
            if event & 1 == 0 { reach(event + 1, 1) }
            for index in start[event]..<start[event + 1] { reach(successors[index], 0) }
        }
        // Steps by start time, file order among equal starts: a counting sort.
        var byStart = Array(repeating: 0, count: count + 2)
        for offset in steps.indices { byStart[time[2 * offset] + 1] += 1 }
        for slot in 1..<byStart.count { byStart[slot] += byStart[slot - 1] }
        var sorted = Array(repeating: 0, count: steps.count)
        for offset in steps.indices {
            let slot = time[2 * offset]
            sorted[byStart[slot]] = offset
            byStart[slot] += 1
        }
        var order: [String] = []
        order.reserveCapacity(steps.count)
        var waves: [[String]] = []
        var wave = Array(repeating: 0, count: steps.count)
        var current = -1
        for offset in sorted {
            let id = steps[offset].id
            order.append(id)
            if time[2 * offset] != current {
                waves.append([])
                current = time[2 * offset]
            }
            waves[waves.count - 1].append(id)
            wave[offset] = waves.count - 1
        }
        self.order = order
        self.waves = waves
        self.wave = wave
    }
}
