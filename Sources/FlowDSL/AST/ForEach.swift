/// `for-each:` on a step: the step runs once per item of a list, with the item and its `index`
/// in scope, at most `concurrency` items at once, deciding by `all`, `any` or `at-least` like a
/// group.
package struct ForEach: Sendable, Hashable {
    /// The items: a YAML list (whose strings may hold `${{ }}`) or one `${{ }}` giving a list, or an
    /// object whose `{key, value}` entries are the items.
    package let items: ValueTemplate
    /// The item's name in expressions (`as:`, default `item`).
    package let name: String
    /// Items in flight at once (`concurrency:`); nil means the workflow's.
    package let concurrency: Int?
    /// `parallel: all` (default) or `any`.
    package let mode: GroupStep.Mode
    /// For `any`: the successes required (default 1).
    package let atLeast: Int?
    /// For `all`: whether the first failure cancels the items in flight (default true).
    package let failFast: Bool
    /// Where `for-each:` is written.
    package let location: SourceLocation
    /// Where the items' value starts.
    package let itemsLocation: SourceLocation

    /// The default of `as`.
    package static let defaultName = "item"
    /// The name of the item's position (counting from 0) in expressions.
    package static let indexName = "index"

    /// Creates a for-each.
    package init(
        items: ValueTemplate, name: String = ForEach.defaultName, concurrency: Int? = nil, mode: GroupStep.Mode = .all,
        atLeast: Int? = nil, failFast: Bool = true, location: SourceLocation, itemsLocation: SourceLocation? = nil
    ) {
        self.items = items
        self.name = name
        self.concurrency = concurrency
        self.mode = mode
        self.atLeast = atLeast
        self.failFast = failFast
        self.location = location
        self.itemsLocation = itemsLocation ?? location
    }

    /// The names the step adds to its expressions: the item's and `index`.
    package var localNames: [String] { [name, Self.indexName] }

    /// The single `${{ }}` giving the items, when they are not a YAML list.
    package var expression: ScalarText? {
        if case .string(let text) = items { return text }
        return nil
    }

    /// Whether the items are known before the run: a YAML list without expressions, or an
    /// expression reading no root (`range(0, 3)`, `files('*.csv')`, `fromJSON('[1]')`).
    package var itemsAreStatic: Bool {
        items.strings.allSatisfy { text in
            guard let template = text.template else { return false }
            return template.expressions.allSatisfy { $0.expression.references.isEmpty }
        }
    }
}
