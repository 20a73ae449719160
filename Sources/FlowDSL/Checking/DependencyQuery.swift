/// Answers "has X finished whenever step S runs?": X is a need of S, of a need (transitively),
/// or of an enclosing group; or X is inside something S waits for; or S is a group reading its
/// own descendants (in its outputs). Searches on demand instead of storing every closure, which
/// would be quadratic in memory for long chains.
///
/// Three things keep a whole file's queries near linear (bench/validate): the search goes
/// breadth first, so the near ancestors real files read are found first; it does not go past
/// steps that start no later than X, which cannot have X behind them; and it remembers, for each X,
/// the steps already known to have X behind them or not, so a chain of steps all reading the same
/// early step costs one hop a query instead of a walk back to it.
struct DependencyQuery {
    /// The workflow's positions, needs and groups (`Workflow.table`): nothing hashed again here.
    private let table: StepTable
    /// The wave (rank of the start time) of each step, when the waves order every need before its
    /// step; nil when they do not (a cycle), and the search then goes all the way.
    private let wave: [Int]?
    /// For each target: steps whose search reaches it (true) or provably does not (false).
    private var known: [Int: [Int: Bool]] = [:]
    /// The search's queue and the query each position was last seen in, reused by every query.
    private var queue: [Int] = []
    private var seenIn: [Int]
    private var query = 0

    init(workflow: Workflow) {
        let table = workflow.table
        self.table = table
        var wave: [Int]
        if table.hasDuplicates {
            // Each id's first step, in the first wave that names the id.
            wave = Array(repeating: -1, count: table.count)
            for (rank, ids) in workflow.waves.enumerated() {
                for id in ids { if let position = table.index[id], wave[position] < 0 { wave[position] = rank } }
            }
        } else {
            wave = workflow.wave
        }
        var consistent = true
        for position in 0..<table.count where consistent && table.first[position] == position {
            consistent =
                wave[position] >= 0
                && table.needs(position).allSatisfy { $0 < 0 || wave[$0] < wave[position] }
                && (table.parent[position] < 0 || wave[table.parent[position]] <= wave[position])
        }
        self.wave = consistent ? wave : nil
        seenIn = Array(repeating: 0, count: table.count)
    }

    mutating func depends(_ reader: String, on target: String) -> Bool {
        guard let reader = table.index[reader], let target = table.index[target], reader != target else {
            return false
        }
        if table.needs(reader).contains(target) || isInside(target, group: reader) { return true }
        // Every step known finished when `reader` starts: needs of the reader and of its groups,
        // then their needs and their groups' needs, transitively.
        query += 1
        queue.removeAll(keepingCapacity: true)
        appendNeeds(of: reader)
        var head = 0
        var found = false
        while head < queue.count {
            let id = queue[head]
            head += 1
            if id < 0 || seenIn[id] == query { continue }
            seenIn[id] = query
            if let answer = known[target]?[id] {
                if answer {
                    found = true
                    break
                }
                continue
            }
            if id == target || isInside(target, group: id) {
                found = true
                break
            }
            // A step behind `id` finished before `id` started; so did the target, if it is (or is
            // inside) one of them: a step starting no later than the target cannot lead to it.
            if let wave, wave[id] <= wave[target] { continue }
            appendNeeds(of: id)
        }
        if found {
            known[target, default: [:]][reader] = true
            return true
        }
        // Every step seen had its whole past searched (or provably could not reach the target).
        Self.markUnreachable(queue, seenIn: seenIn, query: query, in: &known[target, default: [:]])
        return false
    }

    private static func markUnreachable(_ queue: [Int], seenIn: [Int], query: Int, in answers: inout [Int: Bool]) {
        for id in queue where id >= 0 && seenIn[id] == query { answers[id] = false }
    }

    private mutating func appendNeeds(of id: Int) {
        queue += table.needs(id)
        var group = table.parent[id]
        var hops = 0
        while group >= 0, hops <= table.count {
            queue += table.needs(group)
            group = table.parent[group]
            hops += 1
        }
    }

    /// Whether `id` is nested (at any depth) inside group `group`.
    private func isInside(_ id: Int, group: Int) -> Bool {
        var current = table.parent[id]
        var hops = 0
        while current >= 0, hops <= table.count {
            if current == group { return true }
            current = table.parent[current]
            hops += 1
        }
        return false
    }
}
