/// The limits that keep hostile files from exhausting memory, time or the stack.
/// Grammar.md ("Limits") documents each; the numbers are generous for real workflows.
package enum InputLimits {
    /// The largest file `flow` reads: 64 MiB, room for generated workflows of 100,000 steps.
    package static let maximumFileSize = 64 * 1024 * 1024
    /// The most values (mappings, lists and scalars) a file may hold: a bound on memory that file
    /// size alone does not give (`[1,1,1,…]` is two bytes a value). 100,000 generated steps hold
    /// about 1.8 million.
    package static let maximumNodes = 4_000_000
    /// The deepest nesting of mappings and lists, aliases expanded included.
    package static let maximumDepth = 64
    /// How many nodes all aliases of a file may repeat in total (each alias counts the size of
    /// the value it repeats), which stops "billion laughs" alias bombs while composing.
    package static let maximumAliasExpansion = 10_000
}
