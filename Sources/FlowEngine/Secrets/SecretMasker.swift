import Foundation

/// Replaces every occurrence of a secret's value with `***` in text flow prints or writes.
///
/// Besides the value itself it masks the forms a value commonly takes on its way through a
/// workflow: each line of a multi-line value, its percent-encoded form (secrets in URLs and
/// forms) and its JSON-escaped form (secrets echoed back in a JSON body). Longer values are
/// masked first so that a secret containing another is hidden whole.
public struct SecretMasker: Sendable {
    /// What replaces a secret.
    public static let mask = "***"

    private let patterns: [String]

    /// A masker for `values`; empty values are ignored (they would match everywhere).
    public init(values: some Sequence<String>) {
        var forms = Set<String>()
        for value in values where !value.isEmpty {
            forms.insert(value)
            for line in value.split(whereSeparator: \.isNewline) where line.count >= 3 {
                forms.insert(String(line))
            }
            if let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
                forms.insert(encoded)
            }
            if let data = try? JSONEncoder().encode(value), let json = String(data: data, encoding: .utf8) {
                forms.insert(String(json.dropFirst().dropLast()))
            }
        }
        patterns = forms.filter { !$0.isEmpty }.sorted { $0.count > $1.count || ($0.count == $1.count && $0 < $1) }
    }

    /// A masker that masks nothing.
    public static let none = SecretMasker(values: [String]())

    /// Whether there is anything to mask.
    public var isEmpty: Bool { patterns.isEmpty }

    /// `text` with every secret replaced by `***`.
    public func callAsFunction(_ text: String) -> String {
        guard !patterns.isEmpty else { return text }
        var masked = text
        for pattern in patterns where masked.contains(pattern) {
            masked = masked.replacingOccurrences(of: pattern, with: Self.mask)
        }
        return masked
    }
}
