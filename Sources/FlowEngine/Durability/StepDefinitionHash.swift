import FlowDSL
import FlowDigest
import Foundation

/// A hash of each step's definition that stays the same from run to run while the step does:
/// a resumed run compares them with the journal's to find the steps changed since.
///
/// The definition is the step's YAML value as parsed (not its text: comments, spacing, key order
/// and where it is in the file do not count; see `Step.definitionFingerprint`), its name and description left out, with what it inherits from the
/// file: `defaults` and `env`. A group's definition holds its children's.
package enum StepDefinitionHash {
    /// Every step's hash, by id: `sharedStart` and each step's rest (see `forEachRest`).
    package static func hashes(of workflow: Workflow) -> [String: String] {
        let shared = sharedStart(of: workflow)
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(workflow.allSteps.count)
        forEachRest(of: workflow) { id, rest in
            switch rest {
            case .hexDigits(let fingerprint): hashes[id] = hash(prefix: shared, fingerprint)
            case .text(let text): hashes[id] = shared + text
            }
        }
        return hashes
    }

    /// The rest of a step's hash after `sharedStart`.
    package enum Rest {
        /// A number, written in lowercase hex without leading zeros.
        case hexDigits(UInt64)
        /// A text.
        case text(String)
    }

    /// What every step's hash starts with: a digest of what all steps inherit when every step
    /// has a parsed fingerprint (a workflow read from a file), else nothing.
    package static func sharedStart(of workflow: Workflow) -> String {
        guard let settings = parsedSettings(of: workflow) else { return "" }
        return String(digest(inheritedText(settings)).prefix(32))
    }

    /// Calls `body` with each step's id and the rest of its hash after `sharedStart`, in the order
    /// of `allSteps`, without building a text a step (the journal writes them as they come).
    package static func forEachRest(of workflow: Workflow, _ body: (String, Rest) -> Void) {
        if parsedSettings(of: workflow) != nil {
            for step in workflow.allSteps {
                body(step.id, .hexDigits(step.definitionFingerprint ?? 0))
            }
            return
        }
        // What every step inherits, hashed once: the file's fingerprint of it. Only a workflow made
        // in code is described by reflection, whose first use of each type scans every protocol
        // conformance in the binary (about 12 ms for `defaults`, more than a 1,000-step run).
        var inherited = ""
        if let settings = workflow.settingsFingerprint {
            inherited = inheritedText(settings)
        } else {
            canonical(workflow.defaults, into: &inherited)
            canonical(workflow.env, into: &inherited)
        }
        let inheritedPrefix = String(digest(inherited).prefix(32))
        for step in workflow.allSteps {
            // A step made in code has no parsed fingerprint, and is described by reflection
            // (about 100 µs a step).
            if let fingerprint = step.definitionFingerprint {
                body(step.id, .text(hash(prefix: inheritedPrefix, fingerprint)))
            } else {
                var text = inherited
                canonical(step, into: &text)
                body(step.id, .text(digest(text)))
            }
        }
    }

    /// How step hashes are computed; changed whenever they are computed differently, so that runs
    /// of one file text by two flows that hash differently do not share hashes (`sharingKey`).
    static let method = 1

    /// A key for step hashes shared by every run of the same file text, when they depend on that
    /// text alone (a workflow read from a file whose `fileHash` is `fileHash`); nil otherwise.
    package static func sharingKey(of workflow: Workflow, fileHash: String) -> String? {
        parsedSettings(of: workflow) == nil ? nil : "\(method):\(fileHash)"
    }

    /// The file's fingerprint of what steps inherit, when it and every step's parsed fingerprint
    /// are known (a workflow read from a file); nil for a workflow made in code.
    private static func parsedSettings(of workflow: Workflow) -> UInt64? {
        guard let settings = workflow.settingsFingerprint,
            workflow.allSteps.allSatisfy({ $0.definitionFingerprint != nil })
        else { return nil }
        return settings
    }

    /// What steps inherit, as the text hashed for it, from the file's fingerprint of it.
    private static func inheritedText(_ settings: UInt64) -> String {
        "settings:" + String(settings, radix: 16)
    }

    /// `prefix` and `fingerprint` in lowercase hex without leading zeros. Only resumes and
    /// workflows made in code build a hash a step; a run writes them through `forEachRest`.
    static func hash(prefix: String, _ fingerprint: UInt64) -> String {
        prefix + String(fingerprint, radix: 16)
    }

    /// The SHA-256 of a file's bytes, in hex; nil when it cannot be read.
    package static func fileHash(path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return SHA256.hash(data: data).hexString
    }

    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).hexString
    }

    /// Fields that say where something is, or are computed from other fields, or do not change
    /// what the step does.
    private static let skipped: Set<String> = [
        "location", "locations", "needLocations", "textStart", "template", "syntaxError", "name", "description",
        "keyLocation", "valueLocation",
    ]

    /// A text for `value` that depends on its contents only: every stored field by name, maps and
    /// sets in sorted order, source locations left out.
    static func canonical(_ value: Any, into text: inout String) {
        if value is SourceLocation { return }
        let mirror = Mirror(reflecting: value)
        if mirror.children.isEmpty {
            text += String(describing: type(of: value)) + ":" + String(describing: value)
            return
        }
        text += String(describing: mirror.subjectType) + "("
        switch mirror.displayStyle {
        case .dictionary?, .set?:
            let parts = mirror.children.map { child -> String in
                var part = ""
                canonical(child.value, into: &part)
                return part
            }
            text += parts.sorted().joined(separator: ",")
        case .enum?:
            for child in mirror.children {
                text += (child.label ?? "") + ":"
                canonical(child.value, into: &text)
            }
        default:
            for child in mirror.children {
                if let label = child.label, skipped.contains(label) { continue }
                if child.value is SourceLocation || child.value is [SourceLocation] { continue }
                text += (child.label ?? "") + "="
                canonical(child.value, into: &text)
                text += ";"
            }
        }
        text += ")"
    }

    /// The steps that run again because `changed` did: those, every step that needs one of them
    /// (directly or not) or reads its `steps.X`, the groups they are in, and the members of
    /// groups that run again. Each with why, by id.
    package static func invalidated(by changed: Set<String>, in workflow: Workflow) -> [String: String] {
        guard !changed.isEmpty else { return [:] }
        // Who follows whom, found once: a resume of a 10,000-step file stays linear.
        var followers: [String: [(id: String, why: String)]] = [:]
        let ids = Set(workflow.allSteps.map(\.id))
        for step in workflow.allSteps {
            for need in step.needs { followers[need, default: []].append((step.id, "it needs '\(need)'")) }
            if let parent = step.parent {
                followers[parent, default: []].append((step.id, "its group '\(parent)' runs again"))
                followers[step.id, default: []].append((parent, "its member '\(step.id)' runs again"))
            }
            var text = ""
            canonical(step.kind, into: &text)
            canonical(step.outputs, into: &text)
            canonical(step.condition as Any, into: &text)
            for read in readSteps(in: text) where read != step.id && ids.contains(read) {
                followers[read, default: []].append((step.id, "it reads steps.\(read)"))
            }
        }
        var reasons: [String: String] = [:]
        for id in changed { reasons[id] = "its definition changed" }
        var queue = Array(changed)
        while let id = queue.popLast() {
            for follower in followers[id] ?? [] where reasons[follower.id] == nil {
                reasons[follower.id] = follower.why
                queue.append(follower.id)
            }
        }
        return reasons
    }

    /// The ids after `steps.` in a text (`steps.login.outputs` gives `login`).
    static func readSteps(in text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = text[...]
        while let range = rest.range(of: "steps.") {
            let after = rest[range.upperBound...]
            let id = after.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            if !id.isEmpty { found.insert(String(id)) }
            rest = after
        }
        return found
    }
}
