/// Sizes as written in workflows: a bare number of bytes, or a number with `B`, `KB`, `MB`, `GB`
/// (powers of 1000) or `KiB`, `MiB`, `GiB` (powers of 1024).
package enum SizeSyntax {
    static let units: [(suffix: String, bytes: Double)] = [
        ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824),
        ("KB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000), ("B", 1),
    ]

    /// Parses `text` into a byte count; nil when it is not a size.
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        guard !digits.isEmpty, let amount = Double(digits) else { return nil }
        let suffix = trimmed.dropFirst(digits.count).trimmingSpaces
        let factor: Double
        if suffix.isEmpty {
            factor = 1
        } else if let unit = units.first(where: { $0.suffix == suffix }) {
            factor = unit.bytes
        } else {
            return nil
        }
        let bytes = (amount * factor).rounded()
        guard bytes.isFinite, bytes < 1e18 else { return nil }
        return Int(bytes)
    }

    /// How a plan shows a size: `100KiB`, `5MiB`, `1500B`.
    package static func format(_ bytes: Int) -> String {
        for (suffix, factor) in [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024)]
        where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(suffix)"
        }
        return "\(bytes)B"
    }
}
