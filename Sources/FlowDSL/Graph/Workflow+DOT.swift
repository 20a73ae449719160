/// The workflow's DAG as Graphviz DOT: one box per step, each group a cluster labelled with how it
/// finishes, and an edge from every need to its dependent.
///
/// DOT has no edges to clusters, so each group gets an invisible anchor node inside its cluster;
/// edges to and from a group end at the anchor and are clipped at the cluster's border
/// (`compound=true` with `lhead`/`ltail`), which draws them as touching the group.
extension Workflow {
    /// The DAG as DOT text (`flow graph --format dot`), ending with a newline.
    package var dotGraph: String {
        // The steps of called files (`uses`) are drawn inside their step, labelled `deploy/publish`.
        let qualified = qualifiedSteps
        var groups: Set<String> = []
        for step in qualified {
            switch step.step.kind {
            case .group: groups.insert(step.id)
            case .uses(let uses) where called[uses.resolvedPath] != nil: groups.insert(step.id)
            default: break
            }
        }
        var lines = [
            "digraph \(DOTText.quoted(name ?? "workflow")) {",
            "    compound=true;",
            "    rankdir=TB;",
            "    node [shape=box];",
        ]
        for step in steps {
            appendDOT(step, prefix: "", indent: 1, into: &lines)
        }
        for step in qualified {
            for need in step.needs {
                var attributes: [String] = []
                if groups.contains(need) { attributes.append("ltail=\(DOTText.quoted("cluster_" + need))") }
                if groups.contains(step.id) { attributes.append("lhead=\(DOTText.quoted("cluster_" + step.id))") }
                let suffix = attributes.isEmpty ? "" : " [" + attributes.joined(separator: ", ") + "]"
                lines.append("    \(DOTText.quoted(need)) -> \(DOTText.quoted(step.id))\(suffix);")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func appendDOT(_ step: Step, prefix: String, indent: Int, into lines: inout [String]) {
        let padding = String(repeating: "    ", count: indent)
        let id = prefix + step.id
        let label: String
        let children: [Step]
        var workflow = self
        var childPrefix = prefix
        if case .group(let group) = step.kind {
            label = prefix + Self.graphLabel(of: step) + " (" + Self.graphMode(of: group) + ")"
            children = group.children
        } else if case .uses(let uses) = step.kind, let target = called[uses.resolvedPath] {
            label = prefix + Self.graphLabel(of: step) + " (uses " + uses.file + ")"
            children = target.steps
            workflow = target
            childPrefix = id + "/"
        } else {
            lines.append(
                "\(padding)\(DOTText.quoted(id)) [label=\(DOTText.quoted(prefix + Self.graphLabel(of: step)))];")
            return
        }
        lines.append("\(padding)subgraph \(DOTText.quoted("cluster_" + id)) {")
        lines.append("\(padding)    label=\(DOTText.quoted(label));")
        lines.append("\(padding)    \(DOTText.quoted(id)) [shape=point, style=invis];")
        for child in children {
            workflow.appendDOT(child, prefix: childPrefix, indent: indent + 1, into: &lines)
        }
        lines.append("\(padding)}")
    }
}

/// DOT's quoted identifiers.
enum DOTText {
    /// `text` as a DOT double-quoted string.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": break
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
