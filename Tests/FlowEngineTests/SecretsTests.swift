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

    @Test func everyPercentEncodingOfAValueIsMaskedWhateverSetOfCharactersItKept() {
        let secret = "abc de-fgh.i_j~k"
        let mask = SecretMasker(values: [secret])
        // flow's and libcurl's query encoding (RFC 3986 unreserved kept), everything encoded,
        // lower-case hex, and a form body (space as +).
        for encoded in [
            "abc%20de-fgh.i_j~k", "%61%62%63%20%64%65%2D%66%67%68%2E%69%5F%6A%7E%6B", "abc%20de%2dfgh%2ei%5fj%7ek",
            "abc+de-fgh.i_j%7Ek",
        ] {
            #expect(mask("GET /x?token=\(encoded)&next=1") == "GET /x?token=***&next=1", "\(encoded)")
        }
    }

    @Test func everyJSONEscapingOfAValueIsMasked() {
        let mask = SecretMasker(values: [#"abc/de"fgh"#, "pässwörd-1", "key-😀-end"])
        for escaped in [
            #"abc/de\"fgh"#, #"abc\/de\"fgh"#, #"abc\u002Fde\u0022fgh"#, #"abc\u002fde\"fgh"#,
            // JSON text echoed inside a JSON string: escaped twice.
            #"abc/de\\\"fgh"#, #"abc\\/de\\\"fgh"#,
            #"p\u00e4ssw\u00F6rd-1"#, #"key-\ud83d\ude00-end"#, "abc/de&quot;fgh", "abc&#x2F;de&#34;fgh",
        ] {
            #expect(mask(#"{"echo":""# + escaped + #""}"#) == #"{"echo":"***"}"#, "\(escaped)")
        }
    }

    @Test func theBase64FormsFlowAndBasicAuthProduceAreMasked() {
        let secret = "correct-horse-battery"
        let mask = SecretMasker(values: [secret])
        for prefix in ["", "u:", "user:"] {
            let encoded = Data((prefix + secret).utf8).base64EncodedString()
            let masked = mask("Authorization: Basic \(encoded)")
            #expect(masked.contains("***"), "\(prefix)")
            // What is left of the encoding decodes to no more than a few bytes of the secret.
            #expect(!masked.contains(String(encoded.dropFirst(prefix.count * 4 / 3 + 2).prefix(6))))
        }
        #expect(
            mask("tus Upload-Metadata: token \(Data(secret.utf8).base64EncodedString())").hasPrefix(
                "tus Upload-Metadata: token ***"))
    }

    @Test func aPrefixIsMaskedBeforeItIsCutSoNoPartOfASecretCrossesTheCut() {
        let secret = "s3cr3t-value-22-chars!"
        let mask = SecretMasker(values: [secret])
        let body = String(repeating: ".", count: 290) + secret + " and more"
        let shown = mask.maskedPrefix(body, maxLength: 300)
        #expect(shown == String(repeating: ".", count: 290) + "*** and mo")
        for length in 4...secret.count { #expect(!shown.contains(secret.prefix(length))) }
        #expect(mask.maskedPrefix("short", maxLength: 300) == "short")
    }

    @Test func overlappingSecretsAreMaskedAsOneStretch() {
        let mask = SecretMasker(values: ["xabc", "abcdef"])
        #expect(mask("1 xabcdef 2") == "1 *** 2")
        #expect(mask("xabc abcdef") == "*** ***")
    }

    @Test func textWithoutASecretIsUnchanged() {
        let mask = SecretMasker(values: ["hunter2-long"])
        let text = #"%41 \u0041 &amp; + \\ "hunter" hunter2-lon ü 😀"#
        #expect(mask(text) == text)
    }

    @Test func aMultiLineValueWithCRLFIsMaskedWholeAndLineByLine() {
        let mask = SecretMasker(values: ["first-line\r\nsecond-line"])
        #expect(mask("a first-line\r\nsecond-line b") == "a *** b")
        #expect(mask("x second-line") == "x ***")
        #expect(mask(#"{"k":"first-line\r\nsecond-line"}"#) == #"{"k":"***"}"#)
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

    private func load(_ text: String) throws -> SecretStore {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID())")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try SecretStore.load(environment: [:], file: file.path)
    }

    @Test func crlfLineEndingsSeparateTheSecrets() throws {
        #expect(try load("PW=winpass\r\nOTHER=second\r\n").values == ["PW": "winpass", "OTHER": "second"])
        #expect(
            try load("# saved on Windows\r\n\r\nA='one'\r\nB=\"two\"\r\nC=three").values
                == ["A": "one", "B": "two", "C": "three"])
        #expect(try load("OLD=mac\rSTYLE=lines\r").values == ["OLD": "mac", "STYLE": "lines"])
        #expect(try load("TRAILING = spaced \t \r\n").values == ["TRAILING": "spaced"])
    }

    /// `EMPTY=` is read but counts as not set, as an empty `FLOW_SECRET_*` does.
    @Test func dotenvConventionsAreUnderstood() throws {
        let text = """
            \u{FEFF}# a .env file
            export API_TOKEN=tok-123
            export\tTABBED = spaced value
            SINGLE='literal \\n $HOME # not a comment'
            DOUBLE="line one\\nline \\"two\\" \\\\ \\d" # a comment
            HASH=pass#word
            COMMENTED=value # note
            EMPTY=
            MULTI="-----BEGIN KEY-----
            body
            -----END KEY-----"
            API_TOKEN=second-wins
            export=a name
            """
        #expect(
            try load(text).values == [
                "API_TOKEN": "second-wins", "TABBED": "spaced value", "SINGLE": #"literal \n $HOME # not a comment"#,
                "DOUBLE": "line one\nline \"two\" \\ \\d", "HASH": "pass#word", "COMMENTED": "value",
                "MULTI": "-----BEGIN KEY-----\nbody\n-----END KEY-----", "export": "a name",
            ])
    }

    @Test func anUnclosedQuoteNamesTheLineWhereTheEntryStartsButNotTheValue() throws {
        do {
            _ = try load("A=1\r\nPW=\"hunter2-secret\r\nB=2\r\n")
            Issue.record("an unclosed quote must be refused")
        } catch let error as SecretStore.FileError {
            #expect(error.line == 2)
            #expect(error.message.contains("PW"))
            #expect(!error.description.contains("hunter2"))
        }
        do {
            _ = try load("PW='hunter2' trailing\n")
            Issue.record("text after a closing quote must be refused")
        } catch let error as SecretStore.FileError {
            #expect(error.line == 1)
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func shortValuesAreNamedForTheWarning() {
        let store = SecretStore(values: ["A": "a", "PIN": "123", "LONG": "1234", "EMPTY": ""])
        #expect(store.namesOfShortValues == ["A", "PIN"])
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
