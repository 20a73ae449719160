import FlowEngine
import Foundation
import Testing

@Suite struct SecretMaskerTests {
    @Test func masksEveryOccurrenceAndTheCommonEncodings() {
        let mask = SecretMasker(values: ["p@ss word/1", "tok"])
        #expect(mask("login with p@ss word/1 and p@ss word/1") == "login with *** and ***")
        #expect(mask("GET /login?password=p%40ss%20word%2F1") == "GET /login?password=***")
        #expect(mask(#"{"password":"p@ss word\/1"}"#) == #"{"password":"***"}"#)
        #expect(mask("Bearer tok") == "Bearer ***")
    }

    @Test func aLongerSecretIsMaskedWholeEvenWhenItContainsAShorterOne() {
        let mask = SecretMasker(values: ["abc", "abcdef"])
        #expect(mask("x abcdef y") == "x *** y")
    }

    @Test func eachLineOfAMultiLineSecretIsMasked() {
        let mask = SecretMasker(values: ["-----BEGIN KEY-----\nMIIEsecretbody\n-----END KEY-----"])
        #expect(mask("line: MIIEsecretbody") == "line: ***")
    }

    @Test func emptyValuesMaskNothing() {
        let mask = SecretMasker(values: [""])
        #expect(mask.isEmpty)
        #expect(mask("text") == "text")
    }
}

@Suite struct SecretStoreTests {
    @Test func readsTheEnvironmentAndTheFileWhichWins() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID())")
        try "# comment\n\nPASSWORD=\"from file\"\nTOKEN=abc=def\n".write(to: file, atomically: true, encoding: .utf8)
        let store = try SecretStore.load(
            environment: ["FLOW_SECRET_PASSWORD": "from env", "FLOW_SECRET_API": "k", "HOME": "/root"],
            file: file.path)
        #expect(store.values == ["PASSWORD": "from file", "TOKEN": "abc=def", "API": "k"])
    }

    @Test func aMalformedLineIsReportedWithoutItsValue() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID())")
        try "GOOD=1\nthis line has no equals sign hunter2\n".write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try SecretStore.load(environment: [:], file: file.path)
            Issue.record("a malformed line must be refused")
        } catch {
            #expect(error.description == "\(file.path):2: error: expected KEY=VALUE")
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func aMissingFileIsAClearError() {
        #expect(throws: SecretStore.FileError.self) {
            try SecretStore.load(environment: [:], file: "/nonexistent/secrets")
        }
    }
}
