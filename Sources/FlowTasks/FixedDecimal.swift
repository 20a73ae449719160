import Foundation

/// A number with a fixed count of decimal places, as `String(format: "%.2f", value)` writes it
/// (the reports' percentages and seconds), made without Foundation's formatter, which costs about
/// a microsecond a call: a timeline row takes several.
///
/// The digits are those of printf: the exact binary value rounded half to even (`0.125` is
/// `0.12`, `0.375` is `0.38`, `1.005` is `1.00` since it is stored as 1.00499…), a negative value
/// keeps its sign even when it rounds to zero (`-0.00`).
package enum FixedDecimal {
    /// `value` with `places` (1 or 2) decimals.
    package static func string(_ value: Double, places: Int) -> String {
        let scale: Double = places == 1 ? 10 : 100
        // printf's way for what this does not cover (huge or odd values, other place counts).
        guard value.isFinite, value.magnitude < 1e12, places == 1 || places == 2 else {
            return String(format: "%.\(places)f", value)
        }
        let magnitude = value.magnitude
        // The product and its rounding error (fused multiply-add): `product + error` is exactly
        // magnitude × scale, so ties and near-ties are judged on the exact value.
        let product = magnitude * scale
        let error = (-product).addingProduct(magnitude, scale)
        var units = product.rounded(.down)
        // The sign of (exact - units - 0.5); `product - units` is exact, and so is subtracting 0.5
        // from it wherever the result could be near zero.
        let beyondHalf = ((product - units) - 0.5) + error
        if beyondHalf > 0 || (beyondHalf == 0 && units.truncatingRemainder(dividingBy: 2) != 0) { units += 1 }
        let whole = Int(units)
        let divisor = places == 1 ? 10 : 100
        let fraction = String(whole % divisor)
        let padded = fraction.count < places ? "0" + fraction : fraction
        return (value.sign == .minus ? "-" : "") + String(whole / divisor) + "." + padded
    }
}
