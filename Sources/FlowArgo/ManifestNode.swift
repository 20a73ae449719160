import FlowDSL
import FlowKit

/// A Kubernetes manifest as a tree with ordered keys, written as block YAML (`flow export argo`).
indirect enum ManifestNode {
    case string(String)
    case int(Int)
    case bool(Bool)
    case list([ManifestNode])
    case map([(String, ManifestNode)])

    /// Block YAML; every string double-quoted (JSON escapes are YAML escapes), so no value is
    /// read back as a number, a boolean or null.
    func yaml() -> String {
        var out = ""
        write(into: &out, indent: 0, inList: false)
        return out
    }

    private var isEmptyCollection: Bool {
        switch self {
        case .list(let items): items.isEmpty
        case .map(let entries): entries.isEmpty
        default: false
        }
    }

    private var scalar: String? {
        switch self {
        case .string(let text): Value.string(text).jsonText
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .list(let items) where items.isEmpty: "[]"
        case .map(let entries) where entries.isEmpty: "{}"
        default: nil
        }
    }

    private func write(into out: inout String, indent: Int, inList: Bool) {
        let pad = String(repeating: " ", count: indent)
        switch self {
        case .map(let entries) where !entries.isEmpty:
            for (position, (key, value)) in entries.enumerated() {
                // The first key of a list item follows its "- ".
                if !(inList && position == 0) { out += pad }
                if let scalar = value.scalar {
                    out += "\(key): \(scalar)\n"
                } else {
                    out += "\(key):\n"
                    value.write(into: &out, indent: indent + 2, inList: false)
                }
            }
        case .list(let items) where !items.isEmpty:
            for item in items {
                out += pad + "- "
                if let scalar = item.scalar {
                    out += scalar + "\n"
                } else {
                    item.write(into: &out, indent: indent + 2, inList: true)
                }
            }
        default:
            out += pad + (scalar ?? "") + "\n"
        }
    }
}
