/// Answers "has X finished whenever step S runs?": X is a need of S, of a need (transitively),
/// or of an enclosing group; or X is inside something S waits for; or S is a group reading its
/// own descendants (in its outputs). Searches on demand instead of storing every closure, which
/// would be quadratic in memory for long chains.
struct DependencyQuery {
    private let steps: [String: Step]

    init(workflow: Workflow) {
        var steps: [String: Step] = [:]
        for step in workflow.allSteps where steps[step.id] == nil {
            steps[step.id] = step
        }
        self.steps = steps
    }

    func depends(_ reader: String, on target: String) -> Bool {
        if reader == target { return false }
        if steps[reader]?.needs.contains(target) == true || isInside(target, group: reader) { return true }
        // Every step known finished when `reader` starts: needs of the reader and of its groups,
        // then their needs and their groups' needs, transitively. Breadth first, so the usual
        // read of a need's need is found after a handful of steps, not after a whole ancestry.
        var seen = Set<String>()
        var queue: [String] = []
        var current: String? = reader
        var hops = 0
        while let id = current, let step = steps[id], hops <= steps.count {
            queue += step.needs
            current = step.parent
            hops += 1
        }
        var next = 0
        while next < queue.count {
            let id = queue[next]
            next += 1
            guard seen.insert(id).inserted, let step = steps[id] else { continue }
            if id == target || isInside(target, group: id) { return true }
            queue += step.needs
            var parent = step.parent
            var hops = 0
            while let group = parent, let groupStep = steps[group], hops <= steps.count {
                queue += groupStep.needs
                parent = groupStep.parent
                hops += 1
            }
        }
        return false
    }

    /// Whether `id` is nested (at any depth) inside group `group`.
    private func isInside(_ id: String, group: String) -> Bool {
        var parent = steps[id]?.parent
        var hops = 0
        while let current = parent, hops <= steps.count {
            if current == group { return true }
            parent = steps[current]?.parent
            hops += 1
        }
        return false
    }
}
