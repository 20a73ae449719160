import FlowDSL
import Foundation

/// Writes diagnostics where users and tools expect them: compiler-style text on stderr, or a
/// JSON array on stdout for `--format json`.
enum DiagnosticOutput {
    /// One diagnostic as `flow validate --format json` prints it.
    struct Record: Encodable {
        let file: String
        let line: Int?
        let column: Int?
        let severity: String
        let message: String
        let hint: String?

        init(_ diagnostic: Diagnostic, file: String) {
            self.file = diagnostic.location?.file ?? file
            self.line = diagnostic.location?.line
            self.column = diagnostic.location?.column
            self.severity = diagnostic.severity.rawValue
            self.message = diagnostic.message
            self.hint = diagnostic.hint
        }

        // Explicit nulls, so every record has the same six keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
            try container.encode(severity, forKey: .severity)
            try container.encode(message, forKey: .message)
            try container.encode(hint, forKey: .hint)
        }

        enum CodingKeys: String, CodingKey {
            case file, line, column, severity, message, hint
        }
    }

    static func writeText(_ results: [CheckResult]) {
        for result in results {
            StandardError.write(result.renderedDiagnostics())
        }
    }

    static func json(_ results: [CheckResult]) throws -> String {
        let records = results.flatMap { result in result.diagnostics.map { Record($0, file: result.file) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(records), as: UTF8.self)
    }
}

/// Unbuffered writes to the standard error stream.
enum StandardError {
    static func write(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
