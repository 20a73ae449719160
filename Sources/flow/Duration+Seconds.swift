extension Duration {
    /// The span in seconds as a floating-point number, for the durations the command line prints
    /// (`%.2fs`). The command line's own: the engine's alike-named member is not visible here
    /// (the target sets `MemberImportVisibility`, and imports no engine module).
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
