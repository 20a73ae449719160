import Foundation

/// The values `secrets.NAME` reads: `FLOW_SECRET_NAME` environment variables and the
/// `KEY=VALUE` lines of a `--secrets` file (the file wins when both name a secret).
package struct SecretStore: Sendable {
    /// The prefix of environment variables that hold secrets.
    package static let environmentPrefix = "FLOW_SECRET_"

    /// Secret values by name.
    package let values: [String: String]

    /// A masker for every value in the store, and for the values a run marks secret as it goes
    /// (`SecretMasker.add(_:)`): one for the store and all its copies, so the run, the terminal,
    /// the reports and the journal mask the same values.
    package let masker: SecretMasker

    /// A store with the given values.
    package init(values: [String: String]) {
        self.values = values
        masker = SecretMasker(values: values.values)
    }

    /// A problem in a secrets file, with its line.
    package struct FileError: Error, Sendable, CustomStringConvertible {
        /// The file's path.
        package let path: String
        /// The 1-based line, or nil when the file could not be read.
        package let line: Int?
        /// What is wrong.
        package let message: String

        /// `path:line: error: message`.
        package var description: String {
            if let line { return "\(path):\(line): error: \(message)" }
            return "\(path): error: \(message)"
        }
    }

    /// Secrets from `environment` (`FLOW_SECRET_*`) and, when given, the file at `path`.
    ///
    /// The file is read the way `.env` files are (see `SecretsFileParser`). Errors name the line
    /// but never echo a value. An empty value counts as not set: GitHub Actions passes an
    /// undefined secret as an empty variable, and sending an empty token is never what was meant.
    package static func load(environment: [String: String], file path: String?) throws(FileError) -> SecretStore {
        var values: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix(environmentPrefix) {
            let key = String(name.dropFirst(environmentPrefix.count))
            if !key.isEmpty, !value.isEmpty { values[key] = value }
        }
        guard let path else { return SecretStore(values: values) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(path: path, line: nil, message: "cannot read the secrets file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FileError(path: path, line: nil, message: "the secrets file is not UTF-8 text")
        }
        do throws(SecretsFileParser.Problem) {
            // The last value of a name counts, and an empty one leaves the environment's in place.
            var fromFile: [String: String] = [:]
            for entry in try SecretsFileParser.entries(in: text) { fromFile[entry.name] = entry.value }
            for (name, value) in fromFile where !value.isEmpty { values[name] = value }
        } catch {
            throw FileError(path: path, line: error.line, message: error.message)
        }
        return SecretStore(values: values)
    }

    /// Values shorter than this are masked all the same, but flow warns about them: masking a
    /// one-letter secret hides that letter everywhere in the output.
    package static let shortValueLength = 4

    /// The names of the secrets whose values are set but shorter than `shortValueLength`, sorted.
    package var namesOfShortValues: [String] {
        values.filter { !$0.value.isEmpty && $0.value.count < Self.shortValueLength }.keys.sorted()
    }
}
