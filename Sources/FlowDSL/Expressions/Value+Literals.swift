// Literal conformances let tests and the engine write values as `["a": 1, "b": [true, nil]]`.

extension Value: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    package init(nilLiteral: ()) { self = .null }
}

extension Value: ExpressibleByBooleanLiteral {
    /// A boolean literal is `.bool`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: ExpressibleByIntegerLiteral {
    /// An integer literal is a `.number`.
    package init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension Value: ExpressibleByFloatLiteral {
    /// A floating-point literal is a `.number`.
    package init(floatLiteral value: Double) { self = .number(value) }
}

extension Value: ExpressibleByStringLiteral {
    /// A string literal is a `.string`.
    package init(stringLiteral value: String) { self = .string(value) }
}

extension Value: ExpressibleByArrayLiteral {
    /// An array literal is an `.array`.
    package init(arrayLiteral elements: Value...) { self = .array(elements) }
}

extension Value: ExpressibleByDictionaryLiteral {
    /// A dictionary literal is an `.object`; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, Value)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
