import Foundation
import Testing

/// An empty secret, which is what GitHub Actions passes for one that is not defined, counts as not
/// set: the run stops before anything starts, unless the workflow lists it in `optional-secrets`.
@Suite struct EmptySecretTests {
    static func workflow(optional: Bool) -> String {
        """
        version: 1
        \(optional ? "optional-secrets: [TOKEN]\n" : "")steps:
          say:
            run: echo "token=${{ secrets.TOKEN || 'anonymous' }}"
        """
    }

    @Test func anEmptySecretIsNotSet() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write("needs.yaml", Self.workflow(optional: false))
        let fromEnvironment = try await FlowProcess.run(["run", file], environment: ["FLOW_SECRET_TOKEN": ""])
        #expect(fromEnvironment.exitCode == 2, "\(fromEnvironment.stdout)\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr.contains("secret 'TOKEN' is not set"), "\(fromEnvironment.stderr)")
        #expect(!fromEnvironment.stdout.contains("token="), "\(fromEnvironment.stdout)")
        let secrets = try scratch.write("ci.env", "TOKEN=\n")
        let fromFile = try await FlowProcess.run(["run", file, "--secrets", secrets])
        #expect(fromFile.exitCode == 2, "\(fromFile.stdout)\(fromFile.stderr)")
        #expect(fromFile.stderr.contains("secret 'TOKEN' is not set"), "\(fromFile.stderr)")
    }

    @Test func anOptionalSecretMayBeEmptyOrUnsetAndReadsNull() async throws {
        let scratch = try ForEachCommandTests.Scratch()
        let file = try scratch.write("optional.yaml", Self.workflow(optional: true))
        let validate = try await FlowProcess.run(["validate", file])
        #expect(validate.exitCode == 0, "\(validate.stdout)\(validate.stderr)")
        for environment in [["FLOW_SECRET_TOKEN": ""], [:]] {
            let outcome = try await FlowProcess.run(["run", file], environment: environment)
            #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
            #expect(outcome.stdout.contains("token=anonymous"), "\(outcome.stdout)")
        }
        let set = try await FlowProcess.run(["run", file], environment: ["FLOW_SECRET_TOKEN": "s3cret-value"])
        #expect(set.exitCode == 0 && set.stdout.contains("token=***"), "\(set.stdout)\(set.stderr)")
    }
}
