import FlowDSL
import FlowHTTP
import Foundation

/// Reads S3's XML answers (through libxml2's XPath, see `XPath`) and writes the one XML body flow
/// sends (CompleteMultipartUpload). Elements are matched by local name under any root element,
/// so answers with and without S3's namespace read alike, and so do roots that differ between S3
/// implementations (moto answers ListParts with `ListPartsResponse`, AWS with `ListPartsResult`). Server text is untrusted: callers escape it (`Echo`) before
/// it reaches a terminal.
enum S3XML {
    /// A part as ListParts lists it.
    struct ListedPart: Sendable, Equatable {
        let number: Int
        let size: Int64
        /// The ETag without its quotes.
        let etag: String
        /// `ChecksumSHA256` when the server lists it.
        let sha256: String?
    }

    /// One page of ListParts.
    struct PartsPage: Sendable {
        let parts: [ListedPart]
        /// `NextPartNumberMarker` when `IsTruncated` is true.
        let next: Int?
    }

    /// `<Error><Code>…</Code><Message>…</Message></Error>`'s code and message, if `body` is one.
    static func error(in body: [UInt8]) -> (code: String, message: String)? {
        let text = String(decoding: body, as: UTF8.self)
        guard text.contains("<Error") else { return nil }
        if let code = first("/*[local-name()='Error']/*[local-name()='Code']", in: text) {
            return (code, first("/*[local-name()='Error']/*[local-name()='Message']", in: text) ?? "")
        }
        // Not well-formed XML (a control character in the message, say), yet an error all the same:
        // its elements' text, read plainly.
        guard let code = plainElement("Code", in: text) else { return nil }
        return (code, plainElement("Message", in: text) ?? "")
    }

    /// The text between the first `<name>` and the `</name>` after it, without parsing XML.
    private static func plainElement(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// CreateMultipartUpload's `UploadId`.
    static func uploadID(in body: [UInt8]) -> String? {
        first(
            "/*/*[local-name()='UploadId']",
            in: String(decoding: body, as: UTF8.self)
        ).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether `body` is a CompleteMultipartUploadResult (with its ETag).
    static func completeETag(in body: [UInt8]) -> String? {
        first(
            "/*[local-name()!='Error']/*[local-name()='ETag']",
            in: String(decoding: body, as: UTF8.self))
    }

    /// A page of ListParts; nil when the answer is not a ListPartsResult or its parts do not add up.
    static func partsPage(in body: [UInt8]) -> PartsPage? {
        guard error(in: body) == nil else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        let part = "/*/*[local-name()='Part']"
        guard let count = number("count(\(part))", in: text) else { return nil }
        let numbers = strings("\(part)/*[local-name()='PartNumber']", in: text)
        let sizes = strings("\(part)/*[local-name()='Size']", in: text)
        let etags = strings("\(part)/*[local-name()='ETag']", in: text)
        let checksums = strings("\(part)/*[local-name()='ChecksumSHA256']", in: text)
        guard numbers.count == count, sizes.count == count, etags.count == count else { return nil }
        var parts: [ListedPart] = []
        for index in 0..<count {
            guard let number = Int(numbers[index]), let size = Int64(sizes[index]) else { return nil }
            parts.append(
                ListedPart(
                    number: number, size: size, etag: unquoted(etags[index]),
                    sha256: checksums.count == count ? checksums[index] : nil))
        }
        let truncated =
            first("/*/*[local-name()='IsTruncated']", in: text)?.lowercased() == "true"
        let next = first("/*/*[local-name()='NextPartNumberMarker']", in: text)
            .flatMap { Int($0) }
        return PartsPage(parts: parts, next: truncated ? next : nil)
    }

    /// The CompleteMultipartUpload body: every part's number and ETag (and checksum), in order.
    static func completeBody(_ parts: [(number: Int, etag: String, sha256: String?)]) -> [UInt8] {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in parts {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(escape("\"\(part.etag)\""))</ETag>"
            if let sha256 = part.sha256 { xml += "<ChecksumSHA256>\(escape(sha256))</ChecksumSHA256>" }
            xml += "</Part>"
        }
        xml += "</CompleteMultipartUpload>"
        return Array(xml.utf8)
    }

    /// `text` with `"` quotes around it removed (ETags are quoted in XML and headers).
    static func unquoted(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 2, trimmed.hasPrefix("\""), trimmed.hasSuffix("\"") else { return trimmed }
        return String(trimmed.dropFirst().dropLast())
    }

    /// XML's five special characters escaped, for element text.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func strings(_ expression: String, in text: String) -> [String] {
        guard !text.isEmpty, case .array(let values)? = try? XPath.evaluate(expression, in: text, html: false) else {
            return []
        }
        return values.compactMap { if case .string(let string) = $0 { string } else { nil } }
    }

    private static func first(_ expression: String, in text: String) -> String? {
        strings(expression, in: text).first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func number(_ expression: String, in text: String) -> Int? {
        guard !text.isEmpty, case .number(let value, _)? = try? XPath.evaluate(expression, in: text, html: false)
        else { return nil }
        return Int(exactly: value)
    }
}
