import Foundation
import Testing

@testable import FlowSandbox

/// README.md's endpoint table ("flow sandbox — endpoints") against the routes the sandbox really
/// registers: every route is listed with its method, and every listed path is served, so the
/// table stays true as endpoints come and go.
@Suite struct EndpointTableTests {
    /// One row of the table: its methods (`any` for every method) and its paths, each with its
    /// query left out and its captures written `{}`.
    struct Row {
        let methods: Set<String>
        let paths: [String]
    }

    @Test func theReadmeTableListsEveryRouteTheSandboxServes() throws {
        let rows = try Self.tableRows()
        #expect(rows.count > 20, "the table was not found in README.md")
        let routes = SandboxRoutes.list().map { route in
            let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
            return (method: parts[0], path: Self.normalized(parts[1]))
        }
        let missing = routes.filter { route in
            !rows.contains { row in
                row.paths.contains(route.path) && (row.methods.contains(route.method) || row.methods.contains("any"))
            }
        }
        #expect(missing.isEmpty, "README.md's endpoint table lacks \(missing.map { "\($0.method) \($0.path)" })")
        let served = Set(routes.map(\.path))
        let stale = rows.flatMap(\.paths).filter { !served.contains($0) }
        #expect(stale.isEmpty, "README.md lists paths the sandbox does not serve: \(stale)")
    }

    /// The rows of the table under README.md's "## flow sandbox — endpoints".
    static func tableRows() throws -> [Row] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let section = text.range(of: "## flow sandbox — endpoints") else { return [] }
        let lines = text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
        let table = lines.drop { !$0.hasPrefix("| method") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        return table.map { line in
            // `\|` is a pipe inside a cell (`{cr\|tus}`), not a cell's edge.
            let cells = line.replacingOccurrences(of: "\\|", with: ",").split(separator: "|").map(String.init)
            let methods = cells[0].split { !$0.isLetter }.map(String.init)
                .filter { $0 == "any" || $0 == $0.uppercased() }
            let paths = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { normalized(String($0.element)) }
            return Row(methods: Set(methods), paths: paths)
        }
    }

    /// `path` without its query, each `{capture}` written `{}`.
    static func normalized(_ path: String) -> String {
        let bare = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return bare.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "{}" : String($0) }.joined(separator: "/")
    }
}
