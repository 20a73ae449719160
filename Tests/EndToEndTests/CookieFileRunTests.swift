import FlowSandbox
import Foundation
import Testing

/// `defaults.http.cookies: { load, save }`: the run's jar read from a Netscape cookie file and
/// written to one, which curl reads back with `-b`, and which a later run loads to keep a session.
@Suite struct CookieFileRunTests {
    @Test func theJarIsLoadedFromAndSavedToANetscapeCookieFile() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        _ = try scratch.write(
            "in.txt", "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tpreset\tfrom-file\n")
        let login = try scratch.write(
            "login.yaml",
            """
            version: 1
            defaults:
              http: { base-url: "\(sandbox.baseURL)", cookies: { load: in.txt, save: out/jar.txt } }
            steps:
              echo:
                http: { url: /echo }
                expect:
                  assert: [ "contains(result.json.headers.cookie, 'preset=from-file')" ]
              login:
                http: { method: POST, url: /session/login, json: { user: demo, password: s3cret } }
              me:
                needs: [echo, login]
                http: { url: /me }
            """)
        let first = try await FlowProcess.run(["run", login])
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        let jar = scratch.folder.appendingPathComponent("out/jar.txt").path
        let text = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File"), "\(text)")
        #expect(text.contains("\tpreset\tfrom-file") && text.contains("\tsession\t"), "\(text)")
        let mode = try FileManager.default.attributesOfItem(atPath: jar)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // curl reads the file flow wrote, and its session cookie lets it in.
        let curl = try await runTool("/usr/bin/curl", ["-sf", "-o", "/dev/null", "-b", jar, sandbox.baseURL + "/me"])
        #expect(curl == 0)
        // A later run that loads the jar is still logged in.
        let again = try scratch.write(
            "again.yaml",
            """
            version: 1
            defaults:
              http: { cookies: { load: out/jar.txt } }
            steps:
              me:
                http: { url: "\(sandbox.baseURL)/me" }
                expect: { assert: [ "result.json.user == 'demo'" ] }
            """)
        let second = try await FlowProcess.run(["run", again])
        #expect(second.exitCode == 0, "\(second.stdout)\(second.stderr)")
    }

    @Test func aMissingLoadFileStopsTheRunBeforeAnyRequestUnlessItIsAlsoTheSaveFile() async throws {
        let sandbox = try await Sandbox.start()
        defer { Task { await sandbox.stop() } }
        let scratch = try ForEachCommandTests.Scratch()
        let missing = try scratch.write(
            "missing.yaml",
            """
            version: 1
            defaults:
              http: { cookies: { load: nowhere.txt } }
            steps:
              me:
                http: { url: "\(sandbox.baseURL)/health" }
            """)
        let refused = try await FlowProcess.run(["run", missing])
        #expect(refused.exitCode == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("cookies.load 'nowhere.txt'"), "\(refused.stderr)")
        #expect(refused.stderr.contains("does not exist"), "\(refused.stderr)")
        let kept = try scratch.write(
            "kept.yaml",
            """
            version: 1
            defaults:
              http: { cookies: { load: session.txt, save: session.txt } }
            steps:
              login:
                http: { method: POST, url: "\(sandbox.baseURL)/session/login", json: { user: demo, password: s3cret } }
            """)
        let first = try await FlowProcess.run(["run", kept])
        #expect(first.exitCode == 0, "\(first.stdout)\(first.stderr)")
        let saved = try String(
            contentsOf: scratch.folder.appendingPathComponent("session.txt"), encoding: .utf8)
        #expect(saved.contains("\tsession\t"), "\(saved)")
    }
}
