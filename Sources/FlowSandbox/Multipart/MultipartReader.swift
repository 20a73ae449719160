import FlowDigest

/// A streaming `multipart/form-data` reader: takes the body piece by piece and hashes each part
/// as it goes, so a part of any size costs a small buffer, not its size in memory.
struct MultipartReader {
    /// What one part held.
    struct Part: Encodable, Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var size: Int
        var sha256: String
    }

    /// A body that is not well-formed multipart.
    struct Malformed: Error {
        let message: String
    }

    private enum Phase {
        case preamble, afterDelimiter, headers, body, done
    }

    /// The largest header block of a part accepted.
    private static let headerLimit = 16 << 10

    private let delimiter: [UInt8]
    private var buffer: [UInt8]
    private var start = 0
    private var phase = Phase.preamble
    private var current: Part?
    private var hasher = SHA256()
    private(set) var parts: [Part] = []

    /// A reader for `boundary`, from the request's `Content-Type`.
    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        // The first delimiter may start the body with no CRLF before it.
        buffer = Array("\r\n".utf8)
    }

    /// Whether the closing delimiter has been read.
    var finished: Bool { phase == .done }

    /// The boundary of a `multipart/form-data` content type, or `nil`.
    static func boundary(ofContentType type: String) -> String? {
        let fields = type.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
        guard fields.first?.lowercased() == "multipart/form-data" else { return nil }
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2, pair[0].lowercased() == "boundary" { return unquoted(pair[1]) }
        }
        return nil
    }

    /// Reads the next piece of the body.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Malformed) {
        buffer.append(contentsOf: bytes)
        while try step() {}
        if start > 1 << 16, start > buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Advances one phase when the buffer allows; false when it needs more bytes.
    private mutating func step() throws(Malformed) -> Bool {
        switch phase {
        case .preamble:
            guard let found = find(delimiter, from: start) else {
                start = max(start, buffer.count - delimiter.count)
                return false
            }
            start = found + delimiter.count
            phase = .afterDelimiter
            return true
        case .afterDelimiter:
            guard buffer.count - start >= 2 else { return false }
            if buffer[start] == UInt8(ascii: "-"), buffer[start + 1] == UInt8(ascii: "-") {
                phase = .done
                return false
            }
            // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
            guard let lineEnd = find(Array("\r\n".utf8), from: start) else { return false }
            start = lineEnd + 2
            phase = .headers
            return true
        case .headers:
            guard let end = find(Array("\r\n\r\n".utf8), from: start - 2) else {
                if buffer.count - start > Self.headerLimit { throw Malformed(message: "a part's headers are too long") }
                return false
            }
            let block = end >= start ? String(decoding: buffer[start..<end], as: UTF8.self) : ""
            current = try Self.part(headers: block)
            hasher = SHA256()
            start = end + 4
            phase = .body
            return true
        case .body:
            if let found = find(delimiter, from: start) {
                consume(upTo: found)
                finishPart()
                start = found + delimiter.count
                phase = .afterDelimiter
                return true
            }
            // Everything but what could be the start of a delimiter is content.
            consume(upTo: max(start, buffer.count - delimiter.count + 1))
            return false
        case .done:
            return false
        }
    }

    private mutating func consume(upTo end: Int) {
        guard end > start else { return }
        // A local copy: the closure may not touch `self` while `buffer` is borrowed.
        var hasher = self.hasher
        let start = self.start
        buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        self.hasher = hasher
        current?.size += end - start
        self.start = end
    }

    private mutating func finishPart() {
        guard var part = current else { return }
        part.sha256 = hasher.finalize().hexString
        parts.append(part)
        current = nil
    }

    private func find(_ needle: [UInt8], from offset: Int) -> Int? {
        let from = max(0, offset)
        guard buffer.count - from >= needle.count, let first = needle.first else { return nil }
        return buffer.withUnsafeBufferPointer { haystack -> Int? in
            var index = from
            let last = haystack.count - needle.count
            while index <= last {
                guard let hit = haystack[index...last].firstIndex(of: first) else { return nil }
                var matched = true
                for offset in 1..<needle.count where haystack[hit + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return hit }
                index = hit + 1
            }
            return nil
        }
    }

    /// A part from its header block: `Content-Disposition: form-data; name="…"; filename="…"`
    /// and an optional `Content-Type`.
    private static func part(headers block: String) throws(Malformed) -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in block.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t")
            if field == "content-type" { contentType = value }
            guard field == "content-disposition" else { continue }
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "name": name = unquoted(pair[1])
                case "filename": filename = unquoted(pair[1])
                default: break
                }
            }
        }
        guard let name else { throw Malformed(message: "a part has no Content-Disposition name") }
        return Part(name: name, filename: filename, contentType: contentType, size: 0, sha256: "")
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast()).replacing("\\\"", with: "\"")
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
