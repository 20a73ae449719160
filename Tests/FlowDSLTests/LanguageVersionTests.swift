import FlowDSL
import Testing

@Suite struct LanguageVersionTests {
    @Test func versionOneIsSupported() {
        #expect(LanguageVersion.supported == [1])
    }
}
