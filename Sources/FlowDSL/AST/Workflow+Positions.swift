extension Workflow {
    /// Where each step is in `allSteps`, with its needs and its group as positions there: the
    /// table the checks made once, for a run's scheduler to use instead of hashing every id and
    /// every need again (a third of a 10,000-step run's set-up, issue 32).
    package struct StepPositions: Sendable {
        /// The table the workflow keeps.
        fileprivate let table: StepTable

        /// How many steps there are (`allSteps.count`).
        package var count: Int { table.count }
        /// The position of each id.
        package var index: [String: Int] { table.index }
        /// The positions of the steps the step at `position` needs, in the order of its `needs`;
        /// -1 for an id no step has.
        package func needs(_ position: Int) -> ArraySlice<Int> { table.needs(position) }
        /// The position of the group the step at `position` belongs to, or -1 at top level.
        package func group(_ position: Int) -> Int { table.parent[position] }
    }

    /// The positions of `allSteps`; nil when some id is used twice (a workflow not checked), as
    /// `index` could then name only one of its steps.
    package var stepPositions: StepPositions? {
        table.hasDuplicates ? nil : StepPositions(table: table)
    }
}
