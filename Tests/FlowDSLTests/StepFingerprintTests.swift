import Testing

@testable import FlowDSL

/// The definition fingerprint the composer takes while it builds a step's nodes (`StepCanon`) is
/// the one `NodeFingerprint` takes from the nodes: a resumed run compares it with a journal's.
@Suite struct StepFingerprintTests {
    /// Every step mapping of `yaml` (groups' children too) with the fingerprint the composer took.
    private func steps(_ yaml: String) -> [(id: String, node: Node, taken: UInt64?)] {
        guard case .document(let root) = YAMLComposer.compose(Array(yaml.utf8)) else {
            Issue.record("the YAML does not compose")
            return []
        }
        var found: [(id: String, node: Node, taken: UInt64?)] = []
        func visit(_ node: Node) {
            guard case .mapping(let mapping) = node else { return }
            for (key, value) in mapping where key.scalar?.string == "steps" {
                guard case .mapping(let list) = value else { continue }
                for (id, step) in list {
                    guard case .mapping(let stepMapping) = step else { continue }
                    found.append((id.scalar?.string ?? "", step, stepMapping.fingerprint))
                    visit(step)
                }
            }
        }
        visit(root)
        return found
    }

    private func walked(_ node: Node) -> UInt64 {
        var fingerprint = NodeFingerprint()
        fingerprint.addNode(node, skipping: ["name", "description"])
        return fingerprint.value
    }

    @Test func takenWhileComposingItIsTheFingerprintOfTheNodes() {
        let yaml = """
            version: 1
            steps:
              b: { needs: [a], http: { url: "/x/${{ steps.a.outputs.v }}", method: POST, headers: { Z: 1, A: "2" } }, outputs: { v: "${{ result.status }}" } }
              a:
                run: [echo, "x", 'y', { k: v, b: [1, 2] }]
                name: shown
                "description": left out
                env: { ZZ: "1", "": empty, é: accent, e: plain, "a\u{301}": combining, b: ascii }
                timeout: 5s
                expect: { status: 2xx }
                if: "${{ true }}"
                retry: { attempts: 2, delay: 1s }
                outputs: { z: "1", y: '2', x: 3 }
                continue-on-error: true
                with: { q: [], p: {} }
                cwd: .
                zeta: 1
              g:
                parallel: all
                name: group
                steps:
                  c2: { sleep: 1s, name: c }
                  c1: { run: [true], needs: [c2] }
              q: { "run": "echo", 'needs': [], sleep: 10ms }
            """
        let found = steps(yaml)
        #expect(found.map(\.id) == ["b", "a", "g", "c2", "c1", "q"])
        for step in found {
            #expect(step.taken != nil, "step \(step.id)")
            #expect(step.taken == walked(step.node), "step \(step.id)")
        }
    }

    @Test func aStepHoldingAnAliasIsFingerprintedFromItsNodes() throws {
        let yaml = """
            version: 1
            steps:
              a: { http: &request { url: &url "http://localhost/a", method: GET } }
              b: { http: *request, needs: [a] }
              g:
                parallel: all
                steps:
                  c: { run: [echo, *url] }
                  d: { sleep: 1s }
            """
        let found = steps(yaml)
        let taken = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0.taken) })
        #expect(taken["a"] != nil && taken["d"] != nil)
        #expect(taken["b"] == .some(nil) && taken["c"] == .some(nil) && taken["g"] == .some(nil))
        let result = WorkflowLoader.check(source: yaml, file: "alias.yaml")
        for step in try #require(result.workflow).allSteps {
            let node = try #require(found.first { $0.id == step.id }).node
            #expect(step.definitionFingerprint == walked(node), "step \(step.id)")
        }
    }
}
