import FlowKit
import Foundation

/// Writes diagnostics where users and tools expect them: compiler-style text on stderr, or a
/// JSON array on stdout for `--format json`.
enum DiagnosticOutput {
    /// For `flow run`: tidiness warnings (an output never read) are counted on one line with their
    /// places rather than shown in full on every run; `flow validate` shows them.
    static func writeRunText(_ result: FlowValidation) {
        let tidiness = result.diagnostics.filter(\.isTidiness)
        StandardError.write(result.rendered(result.diagnostics.filter { !$0.isTidiness }))
        guard !tidiness.isEmpty else { return }
        let places = tidiness.map { $0.location?.description ?? result.file }
        let shown = places.prefix(5).joined(separator: ", ") + (places.count > 5 ? ", …" : "")
        StandardError.write(
            "flow: warning: \(tidiness.count) declared output\(tidiness.count == 1 ? " is" : "s are") never read "
                + "(\(shown)); flow validate shows each\n")
    }

    /// A JSON array with one object per diagnostic, keys in the documented order
    /// `file, line, column, severity, message, hint` (null where there is no value).
    static func json(_ results: [FlowValidation]) -> String {
        let records = results.flatMap { result in
            result.diagnostics.map { diagnostic in
                let fields = [
                    ("file", string(diagnostic.location?.file ?? result.file)),
                    ("line", diagnostic.location.map { String($0.line) } ?? "null"),
                    ("column", diagnostic.location.map { String($0.column) } ?? "null"),
                    ("severity", string(diagnostic.severity.rawValue)),
                    ("message", string(diagnostic.message)),
                    ("hint", diagnostic.hint.map(string) ?? "null"),
                ]
                return "  {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            }
        }
        return records.isEmpty ? "[]" : "[\n" + records.joined(separator: ",\n") + "\n]"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func string(_ text: String) -> String {
        FlowJSON.quoted(text)
    }
}

/// Unbuffered writes to the standard error stream.
enum StandardError {
    static func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
