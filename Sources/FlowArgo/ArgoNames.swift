import FlowDSL
import FlowDigest
import FlowKit

/// The Argo names of a workflow's steps and services, unique and valid as Argo requires.
///
/// Argo checks DAG task names against `[a-zA-Z0-9][-a-zA-Z0-9]*` (at most 128 characters),
/// unique in their template, and refuses a task name that begins with a digit when the DAG uses
/// `depends` (argo-workflows `workflow/validate/validate.go`, `validateWorkflowFieldNames` and
/// `validateDAG`). Step ids allow `_` and upper case, and the export adds tasks of its own
/// (`service-NAME`, `ID-items`), so `Build` and `build`, `a_b` and `a-b`, `_b` and `b`, a step
/// `service-x` beside a service `x`, or a step `fan-items` beside a fanned-out step `fan` would
/// give names Argo rejects at submit (a step id cannot begin with a digit; the rule below is for
/// names made from other text). Each gets a name of its own instead: lower case, `-` for other
/// characters, `step-` before a leading digit, and, where two would still meet, `-` and the
/// first 6 hex digits of the SHA-256 of the id (a warning names the steps).
struct ArgoNames {
    private var tasks: [String: String] = [:]
    private var services: [String: String] = [:]
    /// What the export says about renamed steps and services.
    private(set) var warnings: [String] = []

    /// No table: every name is the plain mapping (`ArgoManifest.kubernetesName`).
    init() {}

    /// The names of `workflow`'s top-level steps and services; `itemsTask(step)` says whether a
    /// step also has a task `NAME-items`; `reserved` are task names the export uses itself.
    init(workflow: Workflow, itemsTask: (Step) -> Bool, reserved: Set<String> = []) {
        // Everything each step or service would take, before collisions are resolved.
        var claims: [(kind: String, id: String, base: String, extra: [String])] = []
        for service in workflow.services {
            claims.append(("service", service.name, "service-" + Self.plain(service.name), []))
        }
        for step in workflow.steps {
            let base = Self.plain(step.id)
            claims.append(("step", step.id, base, itemsTask(step) ? [base + "-items"] : []))
        }
        // Who keeps a plain name when two meet: services, then steps whose id is already
        // their name (`build` before `Build`, `a-b` before `a_b`), then the rest, in file order.
        let ordered =
            claims.filter { $0.kind == "service" } + claims.filter { $0.kind == "step" && $0.id == $0.base }
            + claims.filter { $0.kind == "step" && $0.id != $0.base }
        var taken = reserved
        var holder: [String: String] = [:]
        for claim in ordered {
            let wanted = [claim.base] + claim.extra
            var name = claim.base
            let clash = wanted.first { taken.contains($0) }
            if clash != nil || name.count > 100 {
                var length = 6
                repeat {
                    name = String(claim.base.prefix(100)) + "-" + Self.digest(claim.id, length: length)
                    length += 2
                } while taken.contains(name) || (!claim.extra.isEmpty && taken.contains(name + "-items"))
                let reason =
                    if let clash {
                        holder[clash].map { "meets \($0) as the Argo name '\(clash)'" }
                            ?? "is '\(clash)', a name the export uses itself"
                    } else {
                        "is longer than 100 characters as an Argo name"
                    }
                warnings.append("\(claim.kind) '\(claim.id)' \(reason): its task is named '\(name)'")
            }
            for used in [name] + claim.extra.map({ _ in name + "-items" }) {
                taken.insert(used)
                holder[used] = "\(claim.kind) '\(claim.id)'"
            }
            if claim.kind == "service" { services[claim.id] = name } else { tasks[claim.id] = name }
        }
    }

    /// The task name of top-level step `id`.
    func task(_ id: String) -> String { tasks[id] ?? Self.plain(id) }

    /// The daemon task name of service `name`.
    func service(_ name: String) -> String { services[name] ?? "service-" + Self.plain(name) }

    /// Lower case, `-` for every other character, no `-` at either end, `step-` before a
    /// leading digit (Argo's rule for tasks under `depends`).
    static func plain(_ text: String) -> String {
        let name = ArgoManifest.kubernetesName(text)
        return name.first?.isNumber == true ? "step-" + name : name
    }

    /// The first `length` hex digits of the SHA-256 of `text`.
    static func digest(_ text: String, length: Int) -> String {
        String(SHA256.hash(data: Array(text.utf8)).hexString.prefix(length))
    }
}
