import FlowDSL
import Foundation

extension ExpressionScope {
    /// The wall clock, for `daysBeforeNow()` and `daysAfterNow()`.
    func currentTime() -> Double? { Date().timeIntervalSince1970 }
}
