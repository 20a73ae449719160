/// The checks over the whole set of steps: unique ids, known needs, group scopes and cycles.
struct GraphCheck {
    let steps: [Step]
    private(set) var diagnostics: [Diagnostic] = []

    init(steps: [Step]) {
        self.steps = steps
    }

    mutating func run() {
        var first: [String: Step] = [:]
        for step in steps {
            if let earlier = first[step.id] {
                diagnostics.append(
                    .error(
                        "step id '\(Echo.text(step.id))' is used twice",
                        at: step.location,
                        length: step.id.count,
                        hint:
                            "the first '\(Echo.text(step.id))' is at \(earlier.location); ids are unique across the whole file"
                    ))
            } else {
                first[step.id] = step
            }
        }
        checkNeeds(first)
        if !diagnostics.isEmpty { return }
        checkCycles(first)
    }

    private mutating func checkNeeds(_ byID: [String: Step]) {
        let ids = steps.map(\.id)
        for step in steps {
            for (need, location) in zip(step.needs, step.needLocations) {
                guard let needed = byID[need] else {
                    let hint = Suggestion.closest(to: need, in: ids).map { "did you mean '\($0)'?" }
                    diagnostics.append(
                        .error(
                            "step '\(Echo.text(step.id))' needs unknown step '\(Echo.text(need))'",
                            at: location,
                            length: need.count,
                            hint: hint
                        ))
                    continue
                }
                if need == step.id {
                    diagnostics.append(
                        .error("step '\(Echo.text(step.id))' needs itself", at: location, length: need.count))
                } else if isAncestor(step.id, of: needed, byID) {
                    diagnostics.append(
                        .error(
                            "group '\(Echo.text(step.id))' needs its own child '\(Echo.text(need))'",
                            at: location,
                            length: need.count,
                            hint: "a group finishes after its children; remove the need"
                        ))
                } else if let parent = step.parent, needed.parent != parent {
                    diagnostics.append(
                        .error(
                            "step '\(Echo.text(step.id))' in group '\(Echo.text(parent))' needs '\(Echo.text(need))' outside its group",
                            at: location,
                            length: need.count,
                            hint:
                                "children start with their group; put the need on group '\(Echo.text(parent))' instead"
                        ))
                }
            }
        }
    }

    private func isAncestor(_ id: String, of step: Step, _ byID: [String: Step]) -> Bool {
        var current = step.parent
        var guardCount = 0
        while let parent = current, guardCount <= steps.count {
            if parent == id { return true }
            current = byID[parent]?.parent
            guardCount += 1
        }
        return false
    }

    /// Finds a cycle with an iterative depth-first search and prints it `a → b → a`. Besides
    /// `needs`, a step waits for what its enclosing groups need, and a group for its children, so
    /// cycles through group containment are found too.
    private mutating func checkCycles(_ byID: [String: Step]) {
        // Positions instead of ids: each id is hashed once here, and the search hashes nothing.
        // (Ids are unique by now: a repeated id stops the checks before this one.)
        var position: [String: Int] = [:]
        position.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() where position[step.id] == nil {
            position[step.id] = index
        }
        var edges: [[Int]] = []
        edges.reserveCapacity(steps.count)
        for step in steps {
            var waits = step.needs + step.children.map(\.id)
            var parent = step.parent
            var hops = 0
            while let group = parent, let groupStep = byID[group], hops <= steps.count {
                waits += groupStep.needs
                parent = groupStep.parent
                hops += 1
            }
            edges.append(waits.compactMap { position[$0] })
        }
        enum Mark { case unvisited, active, done }
        var mark = [Mark](repeating: .unvisited, count: steps.count)
        for root in steps.indices where mark[root] == .unvisited {
            var path: [(step: Int, next: Int)] = [(root, 0)]
            mark[root] = .active
            while let top = path.last {
                let waits = edges[top.step]
                if top.next >= waits.count {
                    mark[top.step] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let need = waits[top.next]
                switch mark[need] {
                case .done:
                    continue
                case .unvisited:
                    mark[need] = .active
                    path.append((need, 0))
                case .active:
                    reportCycle(path.map { steps[$0.step] }, closingAt: steps[need].id)
                    return
                }
            }
        }
    }

    private mutating func reportCycle(_ path: [Step], closingAt id: String) {
        guard let start = path.firstIndex(where: { $0.id == id }) else { return }
        // Steps in a cycle of needs; print it in dependency order starting at the earliest in the file.
        let members = Array(path[start...])
        let names = members.map(\.id) + [id]
        let first = members[0]
        let index = first.needs.firstIndex(of: members.count > 1 ? members[1].id : id) ?? 0
        let location = index < first.needLocations.count ? first.needLocations[index] : first.location
        diagnostics.append(
            .error(
                "steps form a cycle: \(names.joined(separator: " → "))",
                at: location,
                length: members.count > 1 ? members[1].id.count : id.count,
                hint: "a step cannot wait for a step that waits for it (children also wait for their group's needs)"
            ))
    }
}
