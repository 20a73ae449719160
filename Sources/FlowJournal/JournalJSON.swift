import Foundation

/// The text form of the string maps the journal keeps (step hashes, inputs): a JSON object, its
/// keys in no particular order (they are read back into a dictionary).
enum JournalJSON {
    /// Foundation's encoder, not a JSON writer of the journal's own (the journal imports nothing
    /// of flow's): the maps written so are small (a run's inputs; step hashes only in the rare
    /// case `StepHashText` cannot hold them), so its speed does not matter here.
    static func encode(_ map: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // A map of strings always encodes.
        guard let data = try? encoder.encode(map) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }
}

/// The text a run's step hashes are kept as (table `run_step_hashes`): one line naming the format
/// and the part every hash starts with, then a line a step, its id and the rest of its hash
/// separated by a tab. About a third of the map as JSON (a 10,000-step run's 700 KB was the largest
/// thing the journal wrote). A map whose texts hold a tab or a line break is kept as JSON, which
/// `decode` also reads.
enum StepHashText {
    static let header = "flow-step-hashes 1 "

    static func encode(_ hashes: [String: String]) -> String {
        // The longest start all hashes share, in ASCII (never half a character); each text's bytes
        // read in place, without a copy.
        var first: [UInt8] = []
        var shared = 0
        for (index, value) in hashes.values.enumerated() {
            var value = value
            value.withUTF8 { bytes in
                if index == 0 {
                    first = Array(bytes)
                    shared = bytes.prefix { $0 < 0x80 }.count
                    return
                }
                var count = 0
                let limit = min(shared, bytes.count)
                while count < limit, first[count] == bytes[count] { count += 1 }
                shared = count
            }
        }
        var bytes: [UInt8] = Array(header.utf8) + first.prefix(shared)
        bytes.reserveCapacity(bytes.count + hashes.count * 24)
        for (key, value) in hashes {
            var (key, value) = (key, value)
            let written = key.withUTF8 { key in
                value.withUTF8 { value in
                    // A tab or a line break would break the lines: the map is kept as JSON instead.
                    let breaks: (UInt8) -> Bool = { $0 == 9 || $0 == 10 || $0 == 13 }
                    guard !key.contains(where: breaks), !value.contains(where: breaks) else { return false }
                    bytes.append(10)
                    bytes.append(contentsOf: key)
                    bytes.append(9)
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[shared...]))
                    return true
                }
            }
            if !written { return JournalJSON.encode(hashes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [String: String] {
        guard text.hasPrefix(header) else { return try JournalJSON.decode(text) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        let start = lines.removeFirst().dropFirst(header.count)
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(lines.count)
        for line in lines {
            guard let tab = line.firstIndex(of: "\t") else {
                throw StepLogDamage(description: "a step hash line without a tab: \(line.prefix(40))")
            }
            hashes[String(line[..<tab])] = String(start) + line[line.index(after: tab)...]
        }
        return hashes
    }
}
