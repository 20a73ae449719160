import FlowSandbox
import Foundation
import Testing

/// Proxies (through a real tinyproxy), the run's cookie jar and `auth:` through the built `flow`,
/// against the sandbox.
@Suite struct ProxyCookieAuthRunTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A workflow whose one request asserts whether the sandbox saw tinyproxy's `Via` header.
    private func reflect(_ base: String, proxied: Bool, defaults: String = "") -> String {
        """
        version: 1
        \(defaults)
        steps:
          fetch:
            http: { url: "\(base)/reflect/200" }
            expect:
              assert:
                - ${{ \(proxied ? "" : "!")contains(result.body, '\(TinyProxy.name)') }}
        """
    }

    @Test func requestsGoThroughTheProxyOfDefaultsOrOfTheLowerCaseVariableButNotHTTPProxy() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let proxy = try await TinyProxy.start(in: folder)
        defer { proxy.stop() }
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        let clean = [
            "http_proxy": "", "HTTP_PROXY": "", "https_proxy": "", "HTTPS_PROXY": "", "NO_PROXY": "", "no_proxy": "",
        ]
        func run(_ yaml: String, _ environment: [String: String] = [:]) async throws -> FlowProcess.Outcome {
            let file = folder.appendingPathComponent("w-\(UUID().uuidString).yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            return try await FlowProcess.run(["run", file.path], environment: clean.merging(environment) { $1 })
        }

        let viaDefaults = try await run(
            reflect(sandbox.baseURL, proxied: true, defaults: "defaults: { http: { proxy: \"\(proxyURL)\" } }"))
        #expect(viaDefaults.exitCode == 0, "\(viaDefaults.stdout)\(viaDefaults.stderr)")
        #expect(proxy.requestCount() == 1)

        let viaVariable = try await run(reflect(sandbox.baseURL, proxied: true), ["http_proxy": proxyURL])
        #expect(viaVariable.exitCode == 0, "\(viaVariable.stdout)\(viaVariable.stderr)")

        // httpoxy: a CGI server turns a request's `Proxy:` header into HTTP_PROXY, so libcurl never reads it.
        let upperCase = try await run(reflect(sandbox.baseURL, proxied: false), ["HTTP_PROXY": proxyURL])
        #expect(upperCase.exitCode == 0, "\(upperCase.stdout)\(upperCase.stderr)")

        let excluded = try await run(
            reflect(sandbox.baseURL, proxied: false), ["http_proxy": proxyURL, "NO_PROXY": "127.0.0.1,localhost"])
        #expect(excluded.exitCode == 0, "\(excluded.stdout)\(excluded.stderr)")

        let none = try await run(
            reflect(sandbox.baseURL, proxied: false, defaults: "defaults: { http: { proxy: none } }"),
            ["http_proxy": proxyURL])
        #expect(none.exitCode == 0, "\(none.stdout)\(none.stderr)")
        #expect(proxy.requestCount() == 2, "only the first two runs went through the proxy")
    }

    @Test func theCookieJarKeepsTheSessionOfALoginForTheRunOnly() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cookies.yaml")
        try """
        version: 1
        defaults:
          http: { base-url: "\(sandbox.baseURL)", cookies: true }
        steps:
          login:
            http: { method: POST, url: /session/login, json: { user: demo, password: "${{ secrets.PASSWORD }}" } }
          me:
            needs: login
            http: { url: /me }
            expect: { assert: ["result.json.user == 'demo'"] }
          outsider:
            needs: login
            http: { url: /me, cookies: false }
            expect: { status: 401 }
        """.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await FlowProcess.run(["run", file.path], environment: ["FLOW_SECRET_PASSWORD": "s3cret"])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        // The run's journal (.flow) is expected there; a cookie file is not.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != ".flow" }
        #expect(leftovers == ["cookies.yaml"], "no cookie file is written")

        // A second run starts with an empty jar.
        let again = folder.appendingPathComponent("again.yaml")
        try """
        version: 1
        steps:
          me:
            http: { url: "\(sandbox.baseURL)/me", cookies: true }
            expect: { status: 401 }
        """.write(to: again, atomically: true, encoding: .utf8)
        let second = try await FlowProcess.run(["run", again.path])
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
    }

    @Test func basicAndBearerAuthAreSentAndTheirSecretsNeverShown() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("auth.yaml")
        try """
        version: 1
        defaults:
          http:
            base-url: "\(sandbox.baseURL)"
            auth: { basic: { user: demo, password: "${{ secrets.PASSWORD }}" } }
        steps:
          basic:
            http: { url: /basic-auth }
            outputs: { user: "${{ result.json.user }}" }
          echo:
            http: { url: /reflect/200, auth: { bearer: "${{ secrets.TOKEN }}" } }
            expect: { assert: ["contains(result.body, format('authorization: Bearer {0}', secrets.TOKEN))"] }
            outputs: { seen: "${{ result.body }}" }
          decoded:
            run: echo "${{ base64Decode(base64Encode(format('demo:{0}', secrets.PASSWORD))) }}"
        """.write(to: file, atomically: true, encoding: .utf8)
        let secrets = ["FLOW_SECRET_PASSWORD": "s3cret", "FLOW_SECRET_TOKEN": "tok-1234567890"]
        let outcome = try await FlowProcess.run(["run", file.path], environment: secrets)
        let output = outcome.stdout + outcome.stderr
        #expect(outcome.exitCode == 0, "\(output)")
        #expect(output.contains("demo:***"), "\(output)")
        let dry = try await FlowProcess.run(["run", file.path, "--dry-run"], environment: secrets)
        #expect(dry.stdout.contains("header Authorization: Basic ***"), "\(dry.stdout)")
        #expect(dry.stdout.contains("header Authorization: Bearer ***"), "\(dry.stdout)")
        for text in [output, dry.stdout + dry.stderr] {
            for secret in ["s3cret", "tok-1234567890", "ZGVtbzpzM2NyZXQ="] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}
