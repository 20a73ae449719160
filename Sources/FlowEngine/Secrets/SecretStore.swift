import Foundation

/// The values `secrets.NAME` reads: `FLOW_SECRET_NAME` environment variables and the
/// `KEY=VALUE` lines of a `--secrets` file (the file wins when both name a secret).
public struct SecretStore: Sendable {
    /// The prefix of environment variables that hold secrets.
    public static let environmentPrefix = "FLOW_SECRET_"

    /// Secret values by name.
    public let values: [String: String]

    /// A store with the given values.
    public init(values: [String: String]) {
        self.values = values
    }

    /// A problem in a secrets file, with its line.
    public struct FileError: Error, Sendable, CustomStringConvertible {
        /// The file's path.
        public let path: String
        /// The 1-based line, or nil when the file could not be read.
        public let line: Int?
        /// What is wrong.
        public let message: String

        /// `path:line: error: message`.
        public var description: String {
            if let line { return "\(path):\(line): error: \(message)" }
            return "\(path): error: \(message)"
        }
    }

    /// Secrets from `environment` (`FLOW_SECRET_*`) and, when given, the file at `path`.
    ///
    /// The file holds `KEY=VALUE` lines; blank lines and lines starting with `#` are ignored; a
    /// value may be wrapped in single or double quotes, which are removed. Errors name the line
    /// but never echo the value.
    public static func load(environment: [String: String], file path: String?) throws(FileError) -> SecretStore {
        var values: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix(environmentPrefix) {
            let key = String(name.dropFirst(environmentPrefix.count))
            if !key.isEmpty { values[key] = value }
        }
        guard let path else { return SecretStore(values: values) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, line: nil, message: "cannot read the secrets file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FileError(path: path, line: nil, message: "the secrets file is not UTF-8 text")
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw FileError(path: path, line: index + 1, message: "expected KEY=VALUE")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard isValidName(key) else {
                throw FileError(
                    path: path, line: index + 1,
                    message: "'\(key)' is not a secret name (letters, digits and '_', not starting with a digit)")
            }
            values[key] = unquote(String(line[line.index(after: equals)...]))
        }
        return SecretStore(values: values)
    }

    /// A masker for every value in the store.
    public var masker: SecretMasker { SecretMasker(values: values.values) }

    private static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !CharacterSet.decimalDigits.contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
            && name.allSatisfy(\.isASCII)
    }

    private static func unquote(_ value: String) -> String {
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            return String(value.dropFirst().dropLast())
        }
        return value
    }
}
