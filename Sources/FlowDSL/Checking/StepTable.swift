/// The steps of a workflow by position in `allSteps`, built once with the workflow: each id and
/// each need is hashed once here, and the schedule, the graph check and the dependency query work
/// on positions (issue 19). Flat arrays rather than an array per step.
struct StepTable: Sendable {
    /// The first position of each id.
    let index: [String: Int]
    /// For each position, the first position with the same id (itself unless the id repeats).
    let first: [Int]
    /// Whether some id is used twice.
    let hasDuplicates: Bool
    /// The first position of each step's group (`parent`), or -1 at top level or when unknown.
    let parent: [Int]
    /// The needs of step `i` are `needList[needStart[i]..<needStart[i + 1]]`: first positions,
    /// -1 for an id no step has.
    let needStart: [Int]
    let needList: [Int]

    init(steps: [Step]) {
        var index: [String: Int] = [:]
        index.reserveCapacity(steps.count)
        var first: [Int] = []
        first.reserveCapacity(steps.count)
        var duplicates = false
        for (position, step) in steps.enumerated() {
            let earliest = Self.claim(&index[step.id, default: -1], position)
            first.append(earliest)
            if earliest != position { duplicates = true }
        }
        var parent: [Int] = []
        parent.reserveCapacity(steps.count)
        var needStart: [Int] = []
        needStart.reserveCapacity(steps.count + 1)
        var needList: [Int] = []
        needList.reserveCapacity(steps.count * 2)
        for step in steps {
            parent.append(step.parent.flatMap { index[$0] } ?? -1)
            needStart.append(needList.count)
            for need in step.needs { needList.append(index[need] ?? -1) }
        }
        needStart.append(needList.count)
        self.index = index
        self.first = first
        self.hasDuplicates = duplicates
        self.parent = parent
        self.needStart = needStart
        self.needList = needList
    }

    /// Sets an absent slot (-1) to `position` and returns what the slot holds: one hash a step.
    private static func claim(_ slot: inout Int, _ position: Int) -> Int {
        if slot < 0 { slot = position }
        return slot
    }

    var count: Int { first.count }

    /// The positions step `position` needs (-1 for unknown ids).
    func needs(_ position: Int) -> ArraySlice<Int> {
        needList[needStart[position]..<needStart[position + 1]]
    }
}
