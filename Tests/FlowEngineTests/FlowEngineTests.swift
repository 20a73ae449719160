import FlowEngine
import Testing

@Suite struct FlowEngineTests {
    @Test func noStepKindsBeforeTheExecutorLands() {
        #expect(FlowEngine.stepKinds.isEmpty)
    }
}
