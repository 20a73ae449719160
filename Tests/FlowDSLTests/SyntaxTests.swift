import FlowDSL
import Testing

@Suite struct SyntaxTests {
    @Test(arguments: [
        ("250ms", 250), ("10s", 10_000), ("1m30s", 90_000), ("1h", 3_600_000), ("2", 2000), ("0.25", 250),
        ("1.5s", 1500), ("1h2m3s4ms", 3_723_004),
    ])
    func durationsParse(text: String, milliseconds: Int64) {
        #expect(DurationSyntax.parse(text) == .milliseconds(milliseconds))
    }

    @Test(arguments: ["", "10 seconds", "5x", "ms", "-1s", "1s2", "s1", "1e300", "nan", "inf", "99999999999999999999h"])
    func notDurations(text: String) {
        #expect(DurationSyntax.parse(text) == nil)
    }

    @Test(arguments: [
        ("100KiB", 102_400), ("5MB", 5_000_000), ("1GiB", 1_073_741_824), ("512", 512), ("3B", 3), ("2KB", 2000),
        ("5MiB", 5_242_880),
    ])
    func sizesParse(text: String, bytes: Int) {
        #expect(SizeSyntax.parse(text) == bytes)
    }

    @Test(arguments: ["", "100kib", "5 parsecs", "KiB", "1e400"])
    func notSizes(text: String) {
        #expect(SizeSyntax.parse(text) == nil)
    }

    @Test func statusPatternsMatch() {
        let pattern = StatusPattern([.code(200), .statusClass(3)])
        #expect(pattern.matches(200))
        #expect(pattern.matches(308))
        #expect(!pattern.matches(201))
        #expect(StatusPattern.alternative("2xx") == .statusClass(2))
        #expect(StatusPattern.alternative("404") == .code(404))
        #expect(StatusPattern.alternative("700") == nil)
        #expect(StatusPattern.alternative("2x") == nil)
    }

    @Test func idsFollowTheRule() {
        #expect(IdentifierSyntax.isValidName("upload_2-b"))
        #expect(IdentifierSyntax.isValidName("_private"))
        #expect(!IdentifierSyntax.isValidName("1st"))
        #expect(!IdentifierSyntax.isValidName("with space"))
        #expect(!IdentifierSyntax.isValidName(""))
    }
}
