/// A value encodes as the JSON it stands for (`null`, a boolean, a number, a string, an array, an
/// object), so reports keep outputs' types instead of JSON text inside a string.
extension Value: Codable {
    /// Decodes any JSON value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let items = try? container.decode([Value].self) {
            self = .array(items)
        } else {
            self = .object(try container.decode([String: Value].self))
        }
    }

    /// Encodes the value as JSON; a number JSON cannot represent (NaN, an infinity) as `null`, as
    /// `jsonText` writes it.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number, _) where number.isFinite: try container.encode(number)
        case .number: try container.encodeNil()
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }
}

extension Value {
    /// The value with `transform` applied to every string in it (keys stay as they are): how a
    /// report masks secrets inside structured outputs.
    package func mappingStrings(_ transform: (String) -> String) -> Value {
        switch self {
        case .string(let text): .string(transform(text))
        case .array(let items): .array(items.map { $0.mappingStrings(transform) })
        case .object(let fields): .object(fields.mapValues { $0.mappingStrings(transform) })
        case .null, .bool, .number: self
        }
    }
}
