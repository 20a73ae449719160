import Foundation
import Testing

@testable import FlowDSL

/// Every case of the JSONPath Compliance Test Suite (Fixtures/jsonpath-cts, see its README): a
/// valid selector gives the expected nodes, in the expected order (or one of the orders allowed
/// when object members are involved) with their Normalized Paths; an invalid one is refused.
@Suite struct JSONPathComplianceTests {
    /// One case of `cts.json`.
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let selector: String
        let document: Value?
        /// The allowed results: one list of values per allowed order.
        let results: [[Value]]
        /// The Normalized Paths of each allowed result.
        let paths: [[String]]
        let isInvalid: Bool

        var description: String { name }
    }

    /// Cases not run, each with its reason. None today: every case of the suite passes.
    static let skipped: [String: String] = [:]

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jsonpath-cts/cts.json")
        guard let text = try? String(contentsOf: url, encoding: .utf8),
            case .object(let suite)? = try? Value(jsonText: text), case .array(let tests)? = suite["tests"]
        else { return [] }
        return tests.compactMap { test -> Case? in
            guard case .object(let fields) = test, case .string(let name)? = fields["name"],
                case .string(let selector)? = fields["selector"]
            else { return nil }
            func lists(_ value: Value?) -> [[Value]] {
                guard case .array(let lists)? = value else { return [] }
                return lists.map { if case .array(let list) = $0 { list } else { [] } }
            }
            func strings(_ value: Value?) -> [[String]] {
                lists(value).map { $0.map { if case .string(let path) = $0 { path } else { "" } } }
            }
            let results = fields["result"].map { [$0] }.map(Value.array).map { lists($0) } ?? lists(fields["results"])
            let paths = fields["result_paths"].map { strings(.array([$0])) } ?? strings(fields["results_paths"])
            return Case(
                name: name, selector: selector, document: fields["document"], results: results, paths: paths,
                isInvalid: fields["invalid_selector"] == .bool(true))
        }
    }()

    /// What running a case gives: `nil` when it passes, else why not.
    static func failure(of test: Case) -> String? {
        let path: JSONPath
        do {
            path = try JSONPath(test.selector)
        } catch {
            return test.isInvalid ? nil : "refused a valid selector: \(error.message)"
        }
        if test.isInvalid { return "accepted an invalid selector" }
        guard let document = test.document else { return "the case has no document" }
        let nodes = path.nodes(in: document)
        let values = nodes.map(\.value)
        let paths = nodes.map { $0.location?.normalizedPath ?? "$" }
        for (index, expected) in test.results.enumerated()
        where expected.count == values.count && zip(expected, values).allSatisfy(JSONPathComparison.equal) {
            if index < test.paths.count, test.paths[index] != paths {
                return "paths \(paths), expected \(test.paths[index])"
            }
            return nil
        }
        return "gave \(Value.array(values).jsonText), expected \(test.results.map { Value.array($0).jsonText })"
    }

    @Test("RFC 9535 compliance: 703/703 cases of the JSONPath Compliance Test Suite pass")
    func everyCasePasses() {
        #expect(Self.cases.count == 703)
        var failures: [String] = []
        for test in Self.cases where Self.skipped[test.name] == nil {
            if let failure = Self.failure(of: test) { failures.append("\(test.name) [\(test.selector)]: \(failure)") }
        }
        #expect(failures.isEmpty, "\(failures.count) failing:\n\(failures.joined(separator: "\n"))")
        #expect(Self.cases.count - Self.skipped.count - failures.count == 703)
    }
}
