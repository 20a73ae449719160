/// The checks over the whole set of steps: unique ids, known needs, group scopes and cycles.
struct GraphCheck {
    let steps: [Step]
    /// The workflow's positions of ids, needs and groups (`Workflow.table`).
    let table: StepTable
    private(set) var diagnostics: [Diagnostic] = []

    init(workflow: Workflow) {
        self.steps = workflow.allSteps
        self.table = workflow.table
    }

    mutating func run() {
        if table.hasDuplicates {
            for (position, step) in steps.enumerated() where table.first[position] != position {
                let earlier = steps[table.first[position]]
                diagnostics.append(
                    .error(
                        "step id '\(Echo.text(step.id))' is used twice",
                        at: step.location,
                        length: step.id.count,
                        hint:
                            "the first '\(Echo.text(step.id))' is at \(earlier.location); ids are unique across the whole file"
                    ))
            }
        }
        checkNeeds()
        if !diagnostics.isEmpty { return }
        checkCycles()
    }

    private mutating func checkNeeds() {
        for (position, step) in steps.enumerated() {
            let needs = table.needs(position)
            guard !needs.isEmpty else { continue }
            for ((need, location), neededPosition) in zip(zip(step.needs, step.needLocations), needs) {
                guard neededPosition >= 0 else {
                    let hint = Suggestion.closest(to: need, in: steps.map(\.id)).map { "did you mean '\($0)'?" }
                    diagnostics.append(
                        .error(
                            "step '\(Echo.text(step.id))' needs unknown step '\(Echo.text(need))'",
                            at: location,
                            length: need.count,
                            hint: hint
                        ))
                    continue
                }
                let needed = steps[neededPosition]
                if need == step.id {
                    diagnostics.append(
                        .error("step '\(Echo.text(step.id))' needs itself", at: location, length: need.count))
                } else if needed.parent != nil, isAncestor(step.id, of: neededPosition) {
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

    /// Whether a group with this id encloses the step at `position` (at any depth).
    private func isAncestor(_ id: String, of position: Int) -> Bool {
        var current = steps[position].parent
        var group = table.parent[position]
        var guardCount = 0
        while let parent = current, guardCount <= steps.count {
            if parent == id { return true }
            guard group >= 0 else { return false }
            current = steps[group].parent
            group = table.parent[group]
            guardCount += 1
        }
        return false
    }

    /// Finds a cycle with an iterative depth-first search and prints it `a → b → a`. Besides
    /// `needs`, a step waits for what its enclosing groups need, and a group for its children, so
    /// cycles through group containment are found too.
    private mutating func checkCycles() {
        // Positions from the shared table: the search hashes nothing but a group's children.
        // (Ids are unique by now: a repeated id stops the checks before this one.) What step i
        // waits for is waits[waitStart[i]..<waitStart[i + 1]]: its needs, its children, then the
        // needs of its enclosing groups, innermost first.
        var waitStart: [Int] = []
        waitStart.reserveCapacity(steps.count + 1)
        var waits: [Int] = []
        waits.reserveCapacity(table.needList.count + steps.count)
        for (position, step) in steps.enumerated() {
            waitStart.append(waits.count)
            for need in table.needs(position) where need >= 0 { waits.append(need) }
            for child in step.children {
                if let childPosition = table.index[child.id] { waits.append(childPosition) }
            }
            var group = table.parent[position]
            var hops = 0
            while group >= 0, hops <= steps.count {
                for need in table.needs(group) where need >= 0 { waits.append(need) }
                group = table.parent[group]
                hops += 1
            }
        }
        waitStart.append(waits.count)
        enum Mark { case unvisited, active, done }
        var mark = [Mark](repeating: .unvisited, count: steps.count)
        var path: [(step: Int, next: Int)] = []
        for root in steps.indices where mark[root] == .unvisited {
            path.removeAll(keepingCapacity: true)
            path.append((root, waitStart[root]))
            mark[root] = .active
            while let top = path.last {
                if top.next >= waitStart[top.step + 1] {
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
                    path.append((need, waitStart[need]))
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
