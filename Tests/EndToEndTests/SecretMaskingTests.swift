import FlowSandbox
import Foundation
import Testing

/// Secrets as they travel: sent in a URL, a form, a JSON body and a header to a sandbox that
/// echoes them back in every encoding, cut by a message's length limit, printed by a command as
/// base64. Not a byte of any of them may reach stdout, stderr or a report.
@Suite struct SecretMaskingTests {
    /// 22 characters, with every character an encoder treats differently: a space, `-._~` (kept by
    /// libcurl, encoded by others), `/` (escaped by some JSON writers), `"`, `+` and a non-ASCII letter.
    static let secret = #"Xq7 de-f.g_h~i/j"k+é9Z"#

    @Test func noEncodingOfASecretReachesOutputOrReports() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-secrets-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = folder.appendingPathComponent("leak.yaml")
        try Self.workflow(base: sandbox.baseURL).write(to: workflow, atomically: true, encoding: .utf8)
        let forbidden = Self.encodings(of: Self.secret)
        for format in ["plain", "json"] {
            let json = folder.appendingPathComponent("run-\(format).json").path
            let junit = folder.appendingPathComponent("run-\(format).xml").path
            let outcome = try await FlowProcess.run(
                [
                    "run", workflow.path, "--log-format", format, "--report", "json", json, "--report", "junit", junit,
                ],
                environment: ["FLOW_SECRET_TOKEN": Self.secret])
            let output = outcome.stdout + outcome.stderr
            #expect(outcome.exitCode == 0, "\(output)")
            // Each echo really happened and was masked, rather than never printed.
            #expect(output.contains("got 418"), "\(output)")
            let texts = [
                ("stdout", outcome.stdout), ("stderr", outcome.stderr),
                ("JSON report", try String(contentsOfFile: json, encoding: .utf8)),
                ("JUnit report", try String(contentsOfFile: junit, encoding: .utf8)),
            ]
            for (name, text) in texts {
                for (encoding, form) in forbidden {
                    // Any 8 characters from the start of a form: a secret cut by a limit.
                    let start = String(form.prefix(8))
                    #expect(!text.contains(start), "\(format) \(name) shows the \(encoding) form: \(text)")
                }
            }
        }
    }

    @Test func aSecretsFileSavedOnWindowsInTheDotenvStyleGivesEachSecretItsOwnValue() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-dotenv-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let secrets = folder.appendingPathComponent(".env")
        let text =
            "# test secrets\r\nPW=winpass\r\nexport QUOTED='it is # not a comment' # note\r\nOTHER=\"second\\tvalue\"\r\n"
        try Data(text.utf8).write(to: secrets)
        let workflow = folder.appendingPathComponent("dotenv.yaml")
        try """
        version: 1
        steps:
          check:
            run: |
              test "${{ secrets.PW }}" = winpass && echo "PW is right"
              test "${{ secrets.QUOTED }}" = "it is # not a comment" && echo "QUOTED is exactly that"
              test "${{ secrets.OTHER }}" = "$(printf 'second\\tvalue')" && echo "OTHER has a tab"
        """.write(to: workflow, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", workflow.path, "--secrets", secrets.path])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        for line in ["PW is right", "QUOTED is exactly that", "OTHER has a tab"] {
            #expect(outcome.stdout.contains(line), "\(outcome.stdout)\(outcome.stderr)")
        }
        #expect(!outcome.stdout.contains("winpass\r"))
    }

    @Test func aShortSecretIsMaskedWithAWarningThatNamesItOnce() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("flow-short-\(UUID()).yaml")
        try """
        version: 1
        steps:
          say: { run: 'echo "pin=${{ secrets.PIN }} long=${{ secrets.LONG }}"' }
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try await FlowProcess.run(
            ["run", file.path], environment: ["FLOW_SECRET_PIN": "7q", "FLOW_SECRET_LONG": "long-enough"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let warnings = outcome.stderr.components(separatedBy: "warning: secret 'PIN' is shorter than 4 characters")
        #expect(warnings.count == 2, "exactly one warning: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("LONG"))
        #expect(!outcome.stderr.contains("7q"))
        #expect(outcome.stdout.contains("pin=*** long=***"))
    }

    @Test func envFileIsAUsageErrorPointingAtSecrets() async throws {
        let outcome = try await FlowProcess.run(["run", "missing.yaml", "--env-file", ".env"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.stderr.contains("--secrets FILE"), "\(outcome.stderr)")
    }

    /// Every way the secret is sent and echoed; steps that fail on purpose continue.
    private static func workflow(base: String) -> String {
        """
        version: 1
        steps:
          query:
            continue-on-error: true
            http: { url: "\(base)/reflect/418", query: { token: "${{ secrets.TOKEN }}" } }
          header:
            continue-on-error: true
            http: { url: "\(base)/reflect/418", headers: { Authorization: "Bearer ${{ secrets.TOKEN }}" } }
          form:
            continue-on-error: true
            http: { method: POST, url: "\(base)/reflect/418", form: { p: "${{ secrets.TOKEN }}" } }
          cut:
            continue-on-error: true
            http: { method: POST, url: "\(base)/reflect/418?pad=290", body: "${{ secrets.TOKEN }}" }
          cut_json:
            continue-on-error: true
            http: { method: POST, url: "\(base)/reflect/418?pad=276&as=json", body: "${{ secrets.TOKEN }}" }
          refused:
            continue-on-error: true
            http: { url: "http://127.0.0.1:1/x", query: { token: "${{ secrets.TOKEN }}" } }
          echo_json:
            http: { method: POST, url: "\(base)/echo", json: { password: "${{ secrets.TOKEN }}" } }
            outputs:
              body: "${{ result.body }}"
              sent: "${{ result.json.body }}"
              password: "${{ fromJSON(result.json.body).password }}"
          php_json:
            http: { method: POST, url: "\(base)/reflect/200?as=json", json: { password: "${{ secrets.TOKEN }}" } }
            outputs: { body: "${{ result.body }}" }
          show:
            needs: [echo_json, php_json]
            run: |
              echo "${{ steps.echo_json.outputs.body }}"
              echo "${{ steps.echo_json.outputs.sent }}"
              echo "${{ steps.echo_json.outputs.password }}"
              echo "${{ steps.php_json.outputs.body }}"
          base64:
            run: |
              printf '%s' "${{ secrets.TOKEN }}" | base64
              printf 'u:%s' "${{ secrets.TOKEN }}" | base64
              printf 'user:%s' "${{ secrets.TOKEN }}" | base64
          stderr:
            continue-on-error: true
            run: |
              echo "${{ secrets.TOKEN }}" >&2
              exit 3
        """
    }

    /// The secret in every encoding it can take, by name.
    static func encodings(of secret: String) -> [(String, String)] {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let alphanumerics = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var formSet = alphanumerics
        formSet.insert(charactersIn: "-._*")
        func percent(_ set: CharacterSet) -> String { secret.addingPercentEncoding(withAllowedCharacters: set) ?? "" }
        var forms: [(String, String)] = [
            ("raw", secret),
            ("percent-encoded (libcurl, flow)", percent(unreserved)),
            ("percent-encoded (lower-case hex)", lowerHex(percent(unreserved))),
            ("percent-encoded (alphanumerics only)", percent(alphanumerics)),
            ("percent-encoded (URL query)", percent(.urlQueryAllowed)),
            ("form-encoded", percent(formSet).replacingOccurrences(of: "%20", with: "+")),
        ]
        for (name, json) in [
            ("JSON (flow)", jsonEscaped(secret, slash: false, ascii: false)),
            ("JSON (\\/)", jsonEscaped(secret, slash: true, ascii: false)),
            ("JSON (\\/ and \\u)", jsonEscaped(secret, slash: true, ascii: true)),
        ] {
            forms.append((name, json))
            forms.append((name + " escaped twice", jsonEscaped(json, slash: false, ascii: false)))
        }
        let bytes = Data(secret.utf8)
        forms.append(("base64", bytes.base64EncodedString()))
        // After one or two bytes of something else, the stable part starts a few characters in.
        forms.append(("base64 at offset 1", String(Data([0] + bytes).base64EncodedString().dropFirst(2))))
        forms.append(("base64 at offset 2", String(Data([0, 0] + bytes).base64EncodedString().dropFirst(3))))
        return forms
    }

    private static func lowerHex(_ text: String) -> String {
        var out = ""
        var hexLeft = 0
        for character in text {
            out += hexLeft > 0 ? character.lowercased() : String(character)
            hexLeft = character == "%" ? 2 : max(hexLeft - 1, 0)
        }
        return out
    }

    private static func jsonEscaped(_ text: String, slash: Bool, ascii: Bool) -> String {
        var out = ""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += #"\""#
            case 0x5C: out += #"\\"#
            case 0x2F where slash: out += #"\/"#
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            case 0x80... where !ascii: out += String(decoding: [unit], as: UTF16.self)
            default: out += String(format: "\\u%04x", unit)
            }
        }
        return out
    }
}
