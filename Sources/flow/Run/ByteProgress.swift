import FlowKit
import Foundation

/// A transfer's progress in words: bytes, percentage, rate and time left, with an optional bar.
struct ByteProgress {
    let done: Int64
    let total: Int64?
    /// Seconds since the step started.
    let elapsed: Double

    /// `1.2 MiB / 4.8 MiB (25%)  3.1 MiB/s  ETA 2s`; parts that are unknown are left out.
    var plainText: String {
        var text = Self.format(bytes: done)
        if let total, total > 0 {
            text += String(format: " / %@ (%.0f%%)", Self.format(bytes: total), Double(done) * 100 / Double(total))
        }
        guard elapsed > 0, done > 0 else { return text }
        let rate = Double(done) / elapsed
        text += "  " + Self.format(bytes: Int64(rate)) + "/s"
        if let total, total > done {
            text += "  ETA " + Self.format(seconds: Double(total - done) / rate)
        }
        return text
    }

    /// `[#########-----------]  ` and the plain text, for the terminal's live view.
    var barText: String {
        guard let total, total > 0 else { return plainText }
        let width = 20
        let filled = Int(Double(width) * Double(min(done, total)) / Double(total))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            + plainText
    }

    static func format(bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func format(seconds: Double) -> String {
        FlowDurationText.remaining(seconds: seconds)
    }
}
