import FlowDSL
import FlowHTTP
import Foundation

/// The response a failed `expect` saw, as lines to show under the failure, as Hurl and `curl -v`
/// do: the status line, the headers as received, a blank line and the start of the body, each
/// line led by `< `. Secrets are masked before anything is cut (a cut must not show the start of a
/// secret), then control characters are escaped: the server wrote every byte of it.
enum ResponseExcerpt {
    /// At most this many header lines; more are counted, not shown.
    static let headerLimit = 30
    /// Characters of one header line or body line; longer ones are cut.
    static let lineLimit = 200
    /// Characters of the body shown at most, and lines of it.
    static let bodyLimit = 500
    static let bodyLines = 10
    /// Reason phrases of the 2xx statuses an `expect` most often sees (`UnexpectedStatus` has the others).
    static let successReasons = [
        200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
    ]

    /// The excerpt of `response`, lines joined by `\n`.
    static func text(_ response: HTTPResponse, masker: SecretMasker) -> String {
        let reason =
            (successReasons[response.status] ?? UnexpectedStatus.reasons[response.status]).map { " \($0)" } ?? ""
        var lines = ["HTTP/\(response.httpVersion) \(response.status)\(reason)"]
        for (index, header) in response.headers.enumerated() {
            guard index < headerLimit else {
                lines.append("… (\(response.headers.count - headerLimit) more headers)")
                break
            }
            lines.append(cut(masker.maskedPrefix("\(header.name): \(header.value)", maxLength: lineLimit + 1)))
        }
        lines.append("")
        lines += body(response, masker: masker)
        if lines.last == "" { lines.removeLast() }
        return lines.map { ("< " + Echo.escapingUnprintable($0)).trimmingTrailingSpace }.joined(separator: "\n")
    }

    /// The body's first lines, or what stands for a body that is not text.
    private static func body(_ response: HTTPResponse, masker: SecretMasker) -> [String] {
        if let saved = response.saved { return ["(the body was written to \(masker(saved.path)))"] }
        guard !response.body.isEmpty else { return [] }
        guard let text = String(validating: response.body, as: UTF8.self) else {
            return ["(\(response.body.count) bytes that are not UTF-8 text)"]
        }
        let shown = masker.maskedPrefix(text, maxLength: bodyLimit)
        let all = shown.split(separator: "\n", omittingEmptySubsequences: false)
        var lines = all.prefix(bodyLines).map { cut(String($0)) }
        if text.count > bodyLimit || all.count > bodyLines {
            lines.append("… (\(response.body.count) bytes in all)")
        }
        return lines
    }

    private static func cut(_ line: String) -> String {
        line.count > lineLimit ? String(line.prefix(lineLimit)) + "…" : line
    }
}

extension String {
    fileprivate var trimmingTrailingSpace: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
