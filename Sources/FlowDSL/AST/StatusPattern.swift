/// The HTTP statuses an `expect.status` (or `retry.on`) accepts: codes and classes like `2xx`.
package struct StatusPattern: Sendable, Hashable, CustomStringConvertible {
    /// One accepted code or class.
    package enum Alternative: Sendable, Hashable, CustomStringConvertible {
        /// Exactly this code.
        case code(Int)
        /// Any code `n00...n99`, written `nxx`.
        case statusClass(Int)

        /// `404` or `2xx`.
        package var description: String {
            switch self {
            case .code(let code): return String(code)
            case .statusClass(let digit): return "\(digit)xx"
            }
        }
    }

    /// The accepted codes and classes; a status matches when any alternative does.
    package let alternatives: [Alternative]

    /// Creates a pattern from its alternatives.
    package init(_ alternatives: [Alternative]) {
        self.alternatives = alternatives
    }

    /// Any 2xx: what a request expects when it says nothing.
    package static let success = StatusPattern([.statusClass(2)])

    /// Whether `status` is accepted.
    package func matches(_ status: Int) -> Bool {
        alternatives.contains { alternative in
            switch alternative {
            case .code(let code): return status == code
            case .statusClass(let digit): return status / 100 == digit
            }
        }
    }

    /// `200`, `2xx` or `200, 201`, as a failure message shows the expectation.
    package var description: String { alternatives.map(\.description).joined(separator: ", ") }

    /// Parses one alternative: a code 100–599 or a class `1xx`–`5xx`; nil when it is neither.
    package static func alternative(_ text: String) -> Alternative? {
        let lower = text.lowercased()
        if lower.count == 3, lower.hasSuffix("xx"), let first = lower.first,
            let digit = first.wholeNumberValue, (1...5).contains(digit)
        {
            return .statusClass(digit)
        }
        if lower.count == 3, lower.allSatisfy(\.isASCII), let code = Int(lower), (100...599).contains(code) {
            return .code(code)
        }
        return nil
    }
}
