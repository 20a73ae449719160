/// A group with `for-each` runs its children once per item: each item is a run of the group's
/// subtree (`forEachGroupBody`), its steps named `group[2]/child`.
extension Workflow {
    /// The outermost group with `for-each` that `step` is nested in (at any depth), if any: such a
    /// step runs once per item of that group, never on its own.
    package func forEachGroup(enclosing step: Step) -> Step? {
        var found: Step?
        var current = step.parent
        var hops = 0
        while let id = current, let group = self.step(id), hops <= allSteps.count {
            if group.forEach != nil { found = group }
            current = group.parent
            hops += 1
        }
        return found
    }

    /// What one item of the `for-each` group `id` runs: a workflow with the same settings whose
    /// only top-level step is the group without `for-each`, `needs`, `if` and `timeout` (the
    /// repeated step keeps those) and with its children as written. Nil when `id` is not a group
    /// with `for-each`. Children only need their siblings (the checker sees to it), so the
    /// subtree is closed.
    package func forEachGroupBody(_ id: String) -> Workflow? {
        guard let group = step(id), group.forEach != nil, case .group = group.kind else { return nil }
        let body = Step(
            id: group.id, location: group.location, name: group.name, description: group.description,
            kind: group.kind, continueOnError: false, outputs: group.outputs)
        var subtree = Workflow(
            file: file, version: version, name: name, description: description, inputs: inputs, env: env,
            defaults: defaults, concurrency: concurrency, steps: [body])
        subtree.called = called
        subtree.settingsFingerprint = settingsFingerprint
        subtree.optionalSecrets = optionalSecrets
        return subtree
    }
}
