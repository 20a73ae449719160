import FlowTasks
import Foundation
import Testing

/// The reports' fixed decimals are printf's `%.2f` and `%.1f`, digit for digit.
@Suite struct FixedDecimalTests {
    @Test func tiesAndNearTiesRoundAsPrintfDoes() {
        let values: [Double] = [
            0, -0.0, 0.125, 0.375, 1.005, 2.675, 0.005, 0.015, 0.025, 0.045, 99.995, 99.994999, 0.5, 1.5, 2.5,
            -0.001, -0.125, -2.675, 12.345, 1e11, 999_999_999_999.99, 0.049999999999999996, 4.35, 100,
            Double.leastNonzeroMagnitude, 1e-300, 0.1, 0.7, 33.333333, 66.666666,
        ]
        for value in values {
            for places in [1, 2] {
                #expect(FixedDecimal.string(value, places: places) == String(format: "%.\(places)f", value), "\(value)")
            }
        }
    }

    @Test func everyHundredthAndItsNeighboursMatchPrintf() {
        // Each x.xx5 and the doubles on either side of it, over the range percentages take.
        for thousandths in stride(from: 5, through: 100_000, by: 10) {
            let center = Double(thousandths) / 1000
            for value in [center.nextDown, center, center.nextUp, center / 10, center * 60] {
                #expect(FixedDecimal.string(value, places: 2) == String(format: "%.2f", value), "\(value)")
                #expect(FixedDecimal.string(value, places: 1) == String(format: "%.1f", value), "\(value)")
            }
        }
    }

    @Test func randomValuesMatchPrintf() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let value = Double.random(in: -1000...1000, using: &generator)
            #expect(FixedDecimal.string(value, places: 2) == String(format: "%.2f", value), "\(value)")
        }
    }

    @Test func whatItDoesNotCoverIsLeftToPrintf() {
        for value in [Double.nan, .infinity, -.infinity, 1e15, -3e20] {
            #expect(FixedDecimal.string(value, places: 2) == String(format: "%.2f", value))
        }
    }
}
