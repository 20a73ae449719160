import Foundation

/// A request's `Content-Range` header: a chunk (`bytes a-b/total`) or a status query (`bytes */total`).
enum ContentRange: Equatable {
    case chunk(first: Int, last: Int, total: Int)
    case query(total: Int)

    /// Parses the header; nil when it is malformed or the numbers do not fit together.
    init?(_ header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes ") else { return nil }
        let spec = text.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let total = Int(halves[1]), total >= 0 else { return nil }
        if halves[0] == "*" {
            self = .query(total: total)
            return
        }
        let bounds = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), let last = Int(bounds[1]),
            first >= 0, first <= last, last < total
        else { return nil }
        self = .chunk(first: first, last: last, total: total)
    }
}
