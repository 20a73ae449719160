/// A text progress bar drawn from `FlowEvent.progress`: one line each time it moves a tenth, so it
/// reads the same in a terminal and in a log.
struct ProgressBar {
    private var shownTenths = -1

    /// The line to print for `done` bytes of `total`, or nil when the bar has not moved a tenth.
    mutating func line(step: String, done: Int64, total: Int64) -> String? {
        guard total > 0 else { return nil }
        let tenths = Int(min(done, total) * 10 / total)
        guard tenths > shownTenths else { return nil }
        shownTenths = tenths
        let bar = String(repeating: "#", count: tenths) + String(repeating: ".", count: 10 - tenths)
        return "\(step) [\(bar)] \(tenths * 10)% \(done / 1024) KiB of \(total / 1024) KiB"
    }
}
