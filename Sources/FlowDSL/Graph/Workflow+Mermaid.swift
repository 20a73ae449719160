/// The workflow's DAG as a Mermaid flowchart: one node per step, each group a subgraph labelled
/// with how it finishes (`any`, `all`, `at-least k`), and an edge from every need to its dependent.
extension Workflow {
    /// The DAG as Mermaid flowchart text (`flow graph --format mermaid`), ending with a newline.
    package var mermaidGraph: String {
        // The steps of called files (`uses`) are drawn inside their step, labelled `deploy/publish`.
        let qualified = qualifiedSteps
        let names = MermaidNames(ids: qualified.map(\.id))
        var lines: [String] = []
        if let name, !name.isEmpty {
            // Front matter is how Mermaid takes a title.
            lines += ["---", "title: \(MermaidNames.label(name))", "---"]
        }
        lines.append("flowchart TD")
        for step in steps {
            appendMermaid(step, prefix: "", names: names, indent: 1, into: &lines)
        }
        for step in qualified {
            for need in step.needs {
                guard let from = names.node[need], let to = names.node[step.id] else { continue }
                lines.append("    \(from) --> \(to)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func appendMermaid(
        _ step: Step, prefix: String, names: MermaidNames, indent: Int, into lines: inout [String]
    ) {
        let padding = String(repeating: "    ", count: indent)
        let node = names.node[prefix + step.id] ?? step.id
        if case .uses(let uses) = step.kind, let called = called[uses.resolvedPath] {
            let label = prefix + Self.graphLabel(of: step) + " (uses " + uses.file + ")"
            lines.append("\(padding)subgraph \(node)[\"\(MermaidNames.label(label))\"]")
            for child in called.steps {
                called.appendMermaid(
                    child, prefix: prefix + step.id + "/", names: names, indent: indent + 1, into: &lines)
            }
            lines.append("\(padding)end")
            return
        }
        guard case .group(let group) = step.kind else {
            lines.append("\(padding)\(node)[\"\(MermaidNames.label(prefix + Self.graphLabel(of: step)))\"]")
            return
        }
        let label = prefix + Self.graphLabel(of: step) + " (" + Self.graphMode(of: group) + ")"
        lines.append("\(padding)subgraph \(node)[\"\(MermaidNames.label(label))\"]")
        for child in group.children {
            appendMermaid(child, prefix: prefix, names: names, indent: indent + 1, into: &lines)
        }
        lines.append("\(padding)end")
    }

    /// What a node shows: the id, and the step's name when it has one.
    static func graphLabel(of step: Step) -> String {
        var label = step.id
        if let name = step.name, !name.isEmpty, name != step.id { label += ": \(name)" }
        if let forEach = step.forEach { label += " " + forEachLabel(forEach) }
        return label
    }

    /// "[for-each item in steps.list.outputs.names, 4 at once, any]": a repeated step's node says so.
    static func forEachLabel(_ forEach: ForEach) -> String {
        var source: String
        switch forEach.items {
        case .array(let items): source = "\(items.count) item\(items.count == 1 ? "" : "s")"
        case .object(let members): source = "\(members.count) entr\(members.count == 1 ? "y" : "ies")"
        case .string(let text):
            source =
                text.template?.expressions.first.map { "${{ \($0.expression.source.trimmingCharactersInSpace()) }}" }
                ?? text.text
        default: source = "items"
        }
        var parts = ["for-each \(forEach.name) in \(source)"]
        if let concurrency = forEach.concurrency { parts.append("\(concurrency) at once") }
        switch forEach.mode {
        case .any: parts.append(forEach.atLeast.map { $0 > 1 ? "at-least \($0)" : "any" } ?? "any")
        case .all: if !forEach.failFast { parts.append("no fail-fast") }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    /// How a group finishes, as its subgraph's label says it.
    static func graphMode(of group: GroupStep) -> String {
        switch group.mode {
        case .any:
            if let atLeast = group.atLeast, atLeast > 1 { return "at-least \(atLeast)" }
            return "any"
        case .all:
            return group.failFast ? "all" : "all, no fail-fast"
        }
    }
}

/// Mermaid node ids for step ids. Most step ids are usable as they are; an id Mermaid would read
/// as syntax (`end`, or `-` that could start an arrow) gets a generated one, kept unique.
struct MermaidNames {
    /// The node id of each step id.
    let node: [String: String]

    init(ids list: [String]) {
        let ids = Set(list)
        var node: [String: String] = [:]
        var taken = ids
        for (index, id) in list.enumerated() {
            if Self.isPlain(id) {
                node[id] = id
                continue
            }
            var candidate = "step\(index + 1)"
            while taken.contains(candidate) { candidate += "_" }
            taken.insert(candidate)
            node[id] = candidate
        }
        self.node = node
    }

    private static let keywords: Set<String> = [
        "end", "graph", "flowchart", "subgraph", "direction", "style", "class", "classdef", "click",
        "linkstyle", "default",
    ]

    private static func isPlain(_ id: String) -> Bool {
        let allowed = id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
        }
        return !id.isEmpty && allowed && !keywords.contains(id.lowercased())
    }

    /// `text` made safe inside a quoted Mermaid label (Mermaid's entity codes for the quote).
    static func label(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\"": result += "#quot;"
            case "\n", "\r": result += " "
            default: result.append(character)
            }
        }
        return result
    }
}

extension String {
    fileprivate func trimmingCharactersInSpace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
