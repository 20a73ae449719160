/// HTTP header fields in the order they were sent or received.
///
/// A name may appear several times (`Set-Cookie`); lookups ignore the case of names, as HTTP does,
/// while the spelling given is kept for sending.
package struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    /// One header field.
    package typealias Element = (name: String, value: String)

    private var fields: [Element] = []

    /// No fields.
    package init() {}

    /// Fields from `(name, value)` pairs, in the order given.
    package init(_ pairs: [(String, String)]) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Fields from a literal such as `["Accept": "application/json"]`, in the order written.
    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name` (any case), or `nil`.
    package subscript(name: String) -> String? {
        fields.first { Self.same($0.name, name) }?.value
    }

    /// Every value of the field `name` (any case), in order.
    package func values(for name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Whether a field `name` (any case) is present.
    package func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// Appends a field, keeping those already present under the same name.
    package mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field `name` (any case) by one with `value`.
    package mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field `name` (any case).
    package mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    /// Extends the last field's value (for folded header lines).
    mutating func appendToLastValue(_ text: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += text
    }

    /// How many fields there are, repeated names counted each time.
    package var count: Int { fields.count }

    /// Iterates the fields in order.
    package func makeIterator() -> IndexingIterator<[Element]> {
        fields.makeIterator()
    }

    /// Same fields in the same order; names compared without case.
    package static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { same($0.name, $1.name) && $0.value == $1.value }
    }

    /// Whether two names are the same but for case. Compares ASCII bytes in place (header names
    /// are ASCII tokens, and each request looks names up several times); other text is compared
    /// lower-cased, as before.
    private static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        var ascii = true
        let equal = zip(a.utf8, b.utf8).allSatisfy { x, y in
            if x >= 0x80 || y >= 0x80 { ascii = false }
            return x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
        }
        return ascii ? equal : a.lowercased() == b.lowercased()
    }
}
