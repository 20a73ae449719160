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
    private let index: [String: Int]
    private let needs: [[Int]]
    private let parent: [Int?]
    /// The wave (rank of the start time) of each step, when the waves order every need before its
    /// step; nil when they do not (a cycle), and the search then goes all the way.
    private let wave: [Int]?
    /// For each target: steps whose search reaches it (true) or provably does not (false).
    private var known: [Int: [Int: Bool]] = [:]

    init(workflow: Workflow) {
        var index: [String: Int] = [:]
        var steps: [Step] = []
        for step in workflow.allSteps where index[step.id] == nil {
            index[step.id] = steps.count
            steps.append(step)
        }
        self.index = index
        needs = steps.map { step in step.needs.compactMap { index[$0] } }
        parent = steps.map { step in step.parent.flatMap { index[$0] } }
        var wave = Array(repeating: -1, count: steps.count)
        for (rank, ids) in workflow.waves.enumerated() {
            for id in ids { if let position = index[id], wave[position] < 0 { wave[position] = rank } }
        }
        var consistent = !wave.contains(-1)
        for position in steps.indices where consistent {
            consistent =
                needs[position].allSatisfy { wave[$0] < wave[position] }
                && parent[position].map { wave[$0] <= wave[position] } ?? true
        }
        self.wave = consistent ? wave : nil
    }

    mutating func depends(_ reader: String, on target: String) -> Bool {
        guard let reader = index[reader], let target = index[target], reader != target else { return false }
        if needs[reader].contains(target) || isInside(target, group: reader) { return true }
        // Every step known finished when `reader` starts: needs of the reader and of its groups,
        // then their needs and their groups' needs, transitively.
        var queue: [Int] = []
        appendNeeds(of: reader, to: &queue)
        var seen = Set<Int>()
        var head = 0
        while head < queue.count {
            let id = queue[head]
            head += 1
            guard seen.insert(id).inserted else { continue }
            if let answer = known[target]?[id] {
                if answer {
                    known[target, default: [:]][reader] = true
                    return true
                }
                continue
            }
            if id == target || isInside(target, group: id) {
                known[target, default: [:]][reader] = true
                return true
            }
            // A step behind `id` finished before `id` started; so did the target, if it is (or is
            // inside) one of them: a step starting no later than the target cannot lead to it.
            if let wave, wave[id] <= wave[target] { continue }
            appendNeeds(of: id, to: &queue)
        }
        // Every step seen had its whole past searched (or provably could not reach the target).
        var answers = known[target, default: [:]]
        for id in seen { answers[id] = false }
        known[target] = answers
        return false
    }

    private func appendNeeds(of id: Int, to queue: inout [Int]) {
        queue += needs[id]
        var group = parent[id]
        var hops = 0
        while let current = group, hops <= needs.count {
            queue += needs[current]
            group = parent[current]
            hops += 1
        }
    }

    /// Whether `id` is nested (at any depth) inside group `group`.
    private func isInside(_ id: Int, group: Int) -> Bool {
        var current = parent[id]
        var hops = 0
        while let step = current, hops <= needs.count {
            if step == group { return true }
            current = parent[step]
            hops += 1
        }
        return false
    }
}
