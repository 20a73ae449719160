import FlowDSL
import Testing

@testable import FlowEngine

/// The hashes a resumed run compares: the same for the same step however it is written, different
/// when what it does changes; and the steps that follow a changed one.
@Suite struct StepDefinitionHashTests {
    static func workflow(_ source: String) throws -> Workflow {
        try #require(WorkflowLoader.check(source: source, file: "w.yaml").workflow)
    }

    static let base = """
        version: 1
        steps:
          a:
            http: { url: "http://127.0.0.1:1/a" }
            outputs: { x: "${{ result.status }}" }
          b:
            needs: a
            http: { url: "http://127.0.0.1:1/b" }
          c:
            http: { url: "http://127.0.0.1:1/c?x=${{ steps.a.outputs.x }}" }
            needs: b
          d:
            http: { url: "http://127.0.0.1:1/d" }
        """

    @Test func commentsSpacingAndPlaceDoNotCountButTheURLDoes() throws {
        let original = StepDefinitionHash.hashes(of: try Self.workflow(Self.base))
        let moved = StepDefinitionHash.hashes(
            of: try Self.workflow("# a comment\n\n" + Self.base.replacingOccurrences(of: "{ url:", with: "{   url:")))
        #expect(original == moved)
        let edited = StepDefinitionHash.hashes(
            of: try Self.workflow(Self.base.replacingOccurrences(of: "1/b", with: "1/b2")))
        #expect(edited["b"] != original["b"])
        #expect(edited.filter { $0.key != "b" } == original.filter { $0.key != "b" })
    }

    @Test func whatEveryStepInheritsCountsForEveryStepHoweverItIsWritten() throws {
        let plain = StepDefinitionHash.hashes(of: try Self.workflow(Self.base))
        let withSettings = "version: 1\nenv: { REGION: eu }\ndefaults: { http: { timeout: 5s } }\n"
        let settings = StepDefinitionHash.hashes(
            of: try Self.workflow(Self.base.replacingOccurrences(of: "version: 1\n", with: withSettings)))
        #expect(settings.keys.allSatisfy { settings[$0] != plain[$0] })
        // Key order and flow or block style do not count; a value does.
        let reordered = "version: 1\ndefaults:\n  http:\n    timeout: 5s\nenv:\n  REGION: eu\n"
        #expect(
            StepDefinitionHash.hashes(
                of: try Self.workflow(Self.base.replacingOccurrences(of: "version: 1\n", with: reordered))) == settings)
        let changed = withSettings.replacingOccurrences(of: "eu", with: "us")
        let other = StepDefinitionHash.hashes(
            of: try Self.workflow(Self.base.replacingOccurrences(of: "version: 1\n", with: changed)))
        #expect(other.keys.allSatisfy { other[$0] != settings[$0] })
    }

    @Test func aHashIsThePrefixAndTheFingerprintInHexAsStringWritesIt() {
        for fingerprint: UInt64 in [0, 1, 0xF, 0x10, 0xDEAD_BEEF, .max, 1 << 63, 0x0123_4567_89AB_CDEF] {
            #expect(StepDefinitionHash.hash(prefix: "abc", fingerprint) == "abc" + String(fingerprint, radix: 16))
        }
    }

    @Test func aChangeReachesWhatNeedsOrReadsTheStep() throws {
        let workflow = try Self.workflow(Self.base)
        let reasons = StepDefinitionHash.invalidated(by: ["a"], in: workflow)
        #expect(reasons["a"] == "its definition changed")
        #expect(reasons["b"] == "it needs 'a'")
        #expect(reasons["c"] != nil)
        #expect(reasons["d"] == nil)
    }

    @Test func aRecordOfItsStateAloneIsKeptAsItsStateAndReadBackAsTheFullEncoderWouldHaveWrittenIt() throws {
        let workflow = try Self.workflow(Self.base)
        for state in [StepState.succeeded, .skipped, .cancelled] {
            var record = StepRecord<StepResult>(id: "a", state: state)
            if state == .succeeded { record.output = StepResult(result: .object([:]), outputs: [:], attempts: 1) }
            #expect(JournalEntry.isStateOnly(record), "\(state)")
            #expect(JournalEntry.encode(record, masker: SecretMasker(values: ["succeeded"])) == .stateOnly)
            // Read back from its state alone, it is the record its full entry gives.
            let kept = try #require(JournalEntry.decode(["a": (state, .stateOnly)], workflow: workflow)["a"])
            let full = StepRecordsFile.encode(record, masker: .none).jsonText
            let written = try #require(JournalEntry.decode(["a": (state, .json(full))], workflow: workflow)["a"])
            #expect(kept.state == state && written.state == state)
            #expect(kept.output?.outputs == written.output?.outputs && kept.winner == written.winner)
            #expect((kept.error == nil) == (written.error == nil))
            #expect(
                StepRecordsFile.encode(kept, masker: .none).jsonText
                    == StepRecordsFile.encode(written, masker: .none).jsonText)
        }
        var record = StepRecord<StepResult>(id: "a", state: .succeeded)
        record.output = StepResult(result: .object([:]), outputs: ["n": .number(1)], attempts: 1)
        #expect(!JournalEntry.isStateOnly(record))
        #expect(JournalEntry.encode(record, masker: .none) == .json(#"{"outputs":{"n":1},"status":"succeeded"}"#))
        record.output = nil
        record.winner = "b"
        #expect(!JournalEntry.isStateOnly(record))
        // Nothing kept: nothing read back, so the step runs again.
        #expect(
            JournalEntry.decode(["a": (.succeeded, .secret), "b": (.succeeded, .none)], workflow: workflow).isEmpty)
    }

    @Test func anOutputHoldingASecretIsAMarkerWithoutTheValue() {
        let masker = SecretMasker(values: ["hunter22"])
        var record = StepRecord<StepResult>(id: "login", state: .succeeded)
        record.output = StepResult(result: .object([:]), outputs: ["token": .string("hunter22")], attempts: 1)
        let secret = JournalEntry.encode(record, masker: masker)
        #expect(secret == .secret)
        record.output = StepResult(result: .object([:]), outputs: ["token": .string("plain")], attempts: 1)
        let plain = JournalEntry.encode(record, masker: masker)
        guard case .json(let text) = plain else {
            Issue.record("not kept as text: \(plain)")
            return
        }
        #expect(text.contains("plain"))
    }
}
