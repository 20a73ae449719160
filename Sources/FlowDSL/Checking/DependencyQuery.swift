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
        // then their needs and their groups' needs, transitively.
        var seen = Set<String>()
        var frontier: [String] = []
        var current: String? = reader
        while let id = current, let step = steps[id] {
            frontier += step.needs
            current = step.parent
        }
        while let id = frontier.popLast() {
            guard seen.insert(id).inserted, let step = steps[id] else { continue }
            if id == target || isInside(target, group: id) { return true }
            frontier += step.needs
            var parent = step.parent
            while let group = parent, let groupStep = steps[group] {
                frontier += groupStep.needs
                parent = groupStep.parent
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
