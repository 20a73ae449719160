import FlowDSL
import Testing

/// `defaults.http.cookies: { load, save }` is the run's; a step's `cookies` stays a boolean.
@Suite struct CookieFilesCheckTests {
    private func errors(_ source: String) -> [String] {
        WorkflowLoader.check(source: source, file: "c.yaml").diagnostics.filter { $0.severity == .error }
            .map { "\($0.location?.line ?? 0): \($0.message)" }
    }

    @Test func filesAreTheDefaultsOnly() {
        #expect(
            errors(
                """
                version: 1
                defaults: { http: { cookies: { load: a.txt, save: b.txt } } }
                steps:
                  one: { http: { url: "http://127.0.0.1:9/" } }
                """
            ).isEmpty)
        #expect(
            errors(
                """
                version: 1
                defaults: { http: { cookies: { keep: a.txt } } }
                steps:
                  one: { http: { url: "http://127.0.0.1:9/", cookies: { load: a.txt } } }
                """
            ) == [
                "2: unknown key 'keep' in 'cookies'",
                "4: a step's 'cookies' is true or false: the cookie jar's files belong to the whole run",
            ])
    }
}
