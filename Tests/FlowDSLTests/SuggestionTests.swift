import FlowDSL
import Testing

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("uplod", "upload"),
        ("upolad", "upload"),
        ("neds", "needs"),
        ("HTTP", "http"),
    ])
    func suggestsTheClosePlausibleWord(typo: String, expected: String) {
        let words = ["http", "upload", "run", "sleep", "needs", "parallel"]
        #expect(Suggestion.closest(to: typo, in: words) == expected)
    }

    @Test func suggestsNothingForAFarWord() {
        #expect(Suggestion.closest(to: "x", in: ["upload", "needs"]) == nil)
        #expect(Suggestion.closest(to: "completely", in: ["upload", "needs"]) == nil)
    }

    @Test func distanceCountsEdits() {
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
    }
}
