import FlowSandbox
import Testing

@Suite struct SandboxInfoTests {
    @Test func bindsToLoopbackByDefault() {
        #expect(SandboxInfo.defaultHost == "127.0.0.1")
    }
}
