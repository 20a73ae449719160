import FlowHTTP
import Testing

@Suite struct CurlVersionTests {
    @Test func linkedLibcurlReportsAVersion() {
        let parts = CurlVersion.text.split(separator: ".")
        #expect(parts.count >= 2)
        #expect(Int(parts[0]) ?? 0 >= 7)
    }
}
