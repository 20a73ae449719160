import FlowDSL
import Testing

/// Mangled versions of a full workflow (bytes flipped, dropped, duplicated, lines shuffled) must
/// always come back as a result, never a crash; a cheap, deterministic cousin of the fuzzers.
@Suite struct MutationTests {
    static let alphabet = Array("{}[]:,-&*!|>'\"#%@`$ \n\t\\0123456789abcxyz".utf8) + [0xC3, 0xFF, 0xE2, 0x80]

    @Test(arguments: 0..<8)
    func mangledWorkflowsNeverCrash(seed: Int) {
        var generator = SplitMix64(state: UInt64(seed))
        let original = Array(WorkflowModelTests.example.utf8)
        for _ in 0..<60 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: bytes[index] = Self.alphabet.randomElement(using: &generator) ?? 0x20
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(Self.alphabet.randomElement(using: &generator) ?? 0x20, at: index)
                default:
                    let end = min(bytes.count, index + Int.random(in: 1...40, using: &generator))
                    bytes.insert(contentsOf: bytes[index..<end], at: index)
                }
            }
            let result = WorkflowLoader.check(bytes: bytes, file: "mangled.yaml")
            #expect(result.hasErrors == (result.workflow == nil))
            _ = result.renderedDiagnostics()
        }
    }
}
