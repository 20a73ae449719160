/// The limits that keep hostile files from exhausting memory, time or the stack.
/// Grammar.md ("Limits") documents each; the numbers are generous for real workflows.
public enum InputLimits {
    /// The largest file `flow` reads: 10 MiB.
    public static let maximumFileSize = 10 * 1024 * 1024
    /// The deepest nesting of mappings and lists, aliases expanded included.
    public static let maximumDepth = 64
    /// How many nodes all aliases of a file may repeat in total (each alias counts the size of
    /// the value it repeats), which stops "billion laughs" alias bombs while composing.
    public static let maximumAliasExpansion = 10_000
}
