import Foundation

/// Where AWS's tools look for an access key and a region, in their order, without the network:
/// the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), then a
/// profile (`AWS_PROFILE`, else `default`) of the shared files `~/.aws/credentials` and
/// `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE` / `AWS_CONFIG_FILE`). A profile named by the
/// workflow skips the environment's keys, as `aws --profile` does. No metadata service (EC2, ECS)
/// is ever asked: a run's credentials are the ones its environment or files hold.
package struct AWSCredentialChain: Sendable {
    /// The process environment (or a test's).
    package let environment: [String: String]

    /// A chain over `environment`.
    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// Credentials found, and where, for messages and `--dry-run` (never the values).
    package struct Found: Sendable, Equatable {
        /// The key.
        package let credentials: AWSCredentials
        /// `the environment (AWS_ACCESS_KEY_ID)` or `profile 'dev' of /home/me/.aws/credentials`.
        package let source: String
        /// The profile's `region`, when the key came from a profile that has one.
        package let profileRegion: String?
    }

    /// The credentials for `profile` (the workflow's, nil for none).
    package func credentials(profile explicitProfile: String?) throws(AWSCredentialError) -> Found {
        if let found = try credentialsIfAny(profile: explicitProfile) { return found }
        throw AWSCredentialError(
            "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, add a profile to "
                + "\(profileFiles.credentials) (AWS_PROFILE names one), or give 'access-key-id' and "
                + "'secret-access-key' (from secrets.*); flow never asks an instance metadata service")
    }

    /// As `credentials(profile:)`, but nil when no credentials are set anywhere (no keys in the
    /// environment, no profile named, no `default` profile): for requests that may go unsigned.
    package func credentialsIfAny(profile explicitProfile: String?) throws(AWSCredentialError) -> Found? {
        if explicitProfile == nil {
            let id = nonEmpty("AWS_ACCESS_KEY_ID")
            let secret = nonEmpty("AWS_SECRET_ACCESS_KEY")
            switch (id, secret) {
            case (let id?, let secret?):
                return Found(
                    credentials: AWSCredentials(
                        accessKeyID: id, secretAccessKey: secret, sessionToken: nonEmpty("AWS_SESSION_TOKEN")),
                    source: "the environment (AWS_ACCESS_KEY_ID)", profileRegion: nil)
            case (nil, nil):
                break
            default:
                throw AWSCredentialError(
                    "the environment has \(id == nil ? "AWS_SECRET_ACCESS_KEY but no AWS_ACCESS_KEY_ID" : "AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY"); set both or neither"
                )
            }
        }
        let name = explicitProfile ?? nonEmpty("AWS_PROFILE") ?? "default"
        let files = profileFiles
        let credentials = try read(files.credentials, section: name)
        let config = try read(files.config, section: name == "default" ? "default" : "profile \(name)")
        let region = config?["region"]
        for (values, path) in [(credentials, files.credentials), (config, files.config)] {
            guard let values else { continue }
            if let id = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] {
                return Found(
                    credentials: AWSCredentials(
                        accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"]),
                    source: "profile '\(name)' of \(path)", profileRegion: region)
            }
        }
        if let values = credentials ?? config {
            let other = ["role_arn", "credential_process", "sso_session", "sso_start_url", "web_identity_token_file"]
                .first { values[$0] != nil }
            let how = other.map { "gets its keys through '\($0)', which flow does not run" } ?? "has no keys"
            throw AWSCredentialError(
                "AWS profile '\(name)' \(how): it needs aws_access_key_id and aws_secret_access_key; "
                    + "`aws configure export-credentials --profile \(name) --format env` prints them as variables")
        }
        if explicitProfile != nil || nonEmpty("AWS_PROFILE") != nil {
            throw AWSCredentialError(
                "there is no AWS profile '\(name)' in \(files.credentials) or \(files.config)")
        }
        return nil
    }

    /// The region: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the profile's (`found`), else the
    /// `region` of the profile named (or `AWS_PROFILE`, or `default`) in the config file.
    package func region(profile explicitProfile: String?, found: Found?) -> String? {
        if let region = nonEmpty("AWS_REGION") ?? nonEmpty("AWS_DEFAULT_REGION") { return region }
        if let region = found?.profileRegion { return region }
        let name = explicitProfile ?? nonEmpty("AWS_PROFILE") ?? "default"
        let values = try? read(profileFiles.config, section: name == "default" ? "default" : "profile \(name)")
        return values?["region"]
    }

    /// `~/.aws/credentials` and `~/.aws/config`, or the files the variables name.
    package var profileFiles: (credentials: String, config: String) {
        let home = nonEmpty("HOME") ?? NSHomeDirectory()
        return (
            nonEmpty("AWS_SHARED_CREDENTIALS_FILE").map(expandingTilde) ?? "\(home)/.aws/credentials",
            nonEmpty("AWS_CONFIG_FILE").map(expandingTilde) ?? "\(home)/.aws/config"
        )
    }

    private func expandingTilde(_ path: String) -> String {
        guard path.hasPrefix("~/") else { return path }
        return (nonEmpty("HOME") ?? NSHomeDirectory()) + path.dropFirst()
    }

    private func nonEmpty(_ name: String) -> String? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The `key = value` lines of `[section]` in the INI file at `path`; nil when the file or the
    /// section does not exist. A file that exists but cannot be read is an error.
    private func read(_ path: String, section: String) throws(AWSCredentialError) -> [String: String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AWSCredentialError("cannot read the AWS file \(path)")
        }
        return AWSProfileFile.sections(text)[section]
    }
}

/// The INI format of `~/.aws/credentials` and `~/.aws/config`: `[section]` lines, `key = value`
/// lines, `#` and `;` comments. Indented lines belong to a nested setting (`s3 =` then
/// `  max_concurrency = 10`) and are skipped.
enum AWSProfileFile {
    static func sections(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            if rawLine.first == " " || rawLine.first == "\t" { continue }
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                    .joined(separator: " ")
                current = name
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current]?[key] = value
        }
        return sections
    }
}

/// Why no credentials (or no region) could be found.
package struct AWSCredentialError: Error, Equatable, CustomStringConvertible {
    /// What is missing and how to give it.
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}
