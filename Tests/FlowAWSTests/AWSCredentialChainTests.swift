import FlowAWS
import Foundation
import Testing

/// Where flow finds an AWS key and region: the environment, then a profile of the shared files,
/// as AWS's tools do; never the network.
struct AWSCredentialChainTests {
    /// A temporary home with `~/.aws/credentials` and `~/.aws/config`.
    final class Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("flow-aws-home-\(UUID())")

        init(credentials: String, config: String = "") throws {
            let aws = url.appendingPathComponent(".aws")
            try FileManager.default.createDirectory(at: aws, withIntermediateDirectories: true)
            try credentials.write(to: aws.appendingPathComponent("credentials"), atomically: true, encoding: .utf8)
            try config.write(to: aws.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let files = """
        # a comment
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = default-secret

        [dev]
        aws_access_key_id=AKIADEV
        aws_secret_access_key = dev/secret+1
        aws_session_token = dev-token
        s3 =
          max_concurrency = 10

        [assumed]
        role_arn = arn:aws:iam::123456789012:role/x
        source_profile = default
        """

    @Test func theEnvironmentComesFirstEvenWithAWSProfile() throws {
        let home = try Home(credentials: Self.files)
        let chain = AWSCredentialChain(environment: [
            "HOME": home.url.path, "AWS_PROFILE": "dev", "AWS_ACCESS_KEY_ID": "AKIAENV",
            "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
        ])
        let found = try chain.credentials(profile: nil)
        #expect(
            found.credentials
                == AWSCredentials(accessKeyID: "AKIAENV", secretAccessKey: "env-secret", sessionToken: "env-token"))
        #expect(found.source == "the environment (AWS_ACCESS_KEY_ID)")
        // A profile the workflow names skips the environment, as `aws --profile` does.
        #expect(try chain.credentials(profile: "dev").credentials.accessKeyID == "AKIADEV")
    }

    @Test func aProfileGivesItsKeyTokenAndRegion() throws {
        let home = try Home(
            credentials: Self.files, config: "[default]\nregion = eu-west-1\n\n[profile dev]\nregion = ap-south-1\n")
        let chain = AWSCredentialChain(environment: ["HOME": home.url.path, "AWS_PROFILE": "dev"])
        let found = try chain.credentials(profile: nil)
        #expect(
            found.credentials
                == AWSCredentials(accessKeyID: "AKIADEV", secretAccessKey: "dev/secret+1", sessionToken: "dev-token"))
        #expect(found.source == "profile 'dev' of \(home.url.path)/.aws/credentials")
        #expect(chain.region(profile: nil, found: found) == "ap-south-1")
        let plain = AWSCredentialChain(environment: ["HOME": home.url.path])
        #expect(try plain.credentials(profile: nil).credentials.accessKeyID == "AKIADEFAULT")
        #expect(plain.region(profile: nil, found: nil) == "eu-west-1")
        let regionFromEnvironment = AWSCredentialChain(environment: [
            "HOME": home.url.path, "AWS_DEFAULT_REGION": "us-west-2",
        ])
        #expect(regionFromEnvironment.region(profile: nil, found: nil) == "us-west-2")
    }

    @Test func theVariablesNameOtherFiles() throws {
        let home = try Home(credentials: "")
        let elsewhere = home.url.appendingPathComponent("creds.ini")
        try "[ci]\naws_access_key_id = AKIACI\naws_secret_access_key = ci-secret\n".write(
            to: elsewhere, atomically: true, encoding: .utf8)
        let chain = AWSCredentialChain(environment: [
            "HOME": home.url.path, "AWS_SHARED_CREDENTIALS_FILE": elsewhere.path, "AWS_PROFILE": "ci",
        ])
        #expect(try chain.credentials(profile: nil).credentials.secretAccessKey == "ci-secret")
    }

    @Test func whatCannotBeUsedSaysWhy() throws {
        let home = try Home(credentials: Self.files)
        func message(_ environment: [String: String], profile: String? = nil) -> String {
            do {
                _ = try AWSCredentialChain(environment: environment.merging(["HOME": home.url.path]) { $1 })
                    .credentials(profile: profile)
                return "found"
            } catch {
                return error.description
            }
        }
        #expect(message(["AWS_ACCESS_KEY_ID": "AKIA"]).contains("AWS_ACCESS_KEY_ID but no AWS_SECRET_ACCESS_KEY"))
        #expect(message([:], profile: "assumed").contains("gets its keys through 'role_arn', which flow does not run"))
        #expect(message(["AWS_PROFILE": "nope"]).contains("there is no AWS profile 'nope'"))
        let empty = try Home(credentials: "")
        let none = (try? AWSCredentialChain(environment: ["HOME": empty.url.path]).credentials(profile: nil)) == nil
        #expect(none)
    }
}
