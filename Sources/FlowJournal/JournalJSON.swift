import Foundation

/// The text form of the string maps the journal keeps (step hashes, inputs): JSON with sorted keys.
enum JournalJSON {
    static func encode(_ map: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(map), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}
