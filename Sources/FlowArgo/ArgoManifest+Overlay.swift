import FlowDSL
import FlowKit
import Foundation

/// What an Argo user sets that the workflow file does not say (`flow export argo --overlay
/// FILE`): one YAML file merged into the manifest (maps key by key, lists appended, other values
/// replaced), documented under "Running on Argo Workflows" in Grammar.md.
///
/// ```yaml
/// metadata: { labels: { team: payments } }        # the Workflow's metadata
/// spec:                                           # the Workflow's spec (every pod)
///   serviceAccountName: flow
///   podGC: { strategy: OnPodSuccess }
///   volumes: [ { name: shared, persistentVolumeClaim: { claimName: flow-shared } } ]
/// container:                                      # every container, steps' and services'
///   resources: { requests: { cpu: 100m } }
///   volumeMounts: [ { name: shared, mountPath: /shared } ]
/// services: { sandbox: { image: "registry.example/sandbox:2" } }   # one service's container
/// cron: { concurrencyPolicy: Forbid }             # the CronWorkflow's spec (--kind CronWorkflow)
/// ```
struct ArgoOverlay {
    var metadata: ManifestNode?
    var spec: ManifestNode?
    var container: ManifestNode?
    var services: [String: ManifestNode] = [:]
    var cron: ManifestNode?

    static let keys = ["metadata", "spec", "container", "services", "cron"]

    /// No overlay.
    init() {}

    /// The overlay in `path`; a problem naming the file, and the place or key, when it cannot
    /// be read, is not YAML, has a key other than `keys`, or names a service `workflow` lacks.
    init(path: String, workflow: Workflow) throws(ArgoManifest.Problem) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ArgoManifest.Problem(message: "--overlay \(path): cannot read it (\(error.localizedDescription))")
        }
        let value: Value
        switch YAMLValue.parse(text) {
        case .success(let parsed): value = parsed
        case .failure(let problem):
            throw ArgoManifest.Problem(message: "\(path):\(problem.line):\(problem.column): \(problem.message)")
        }
        guard case .object(let members) = value else {
            throw ArgoManifest.Problem(
                message: "--overlay \(path): expected a mapping of \(Self.keys.joined(separator: ", "))")
        }
        for key in members.keys.sorted() where !Self.keys.contains(key) {
            throw ArgoManifest.Problem(
                message: "--overlay \(path): unknown key '\(key)'; an overlay has \(Self.keys.joined(separator: ", "))")
        }
        metadata = members["metadata"].map(Self.node)
        spec = members["spec"].map(Self.node)
        container = members["container"].map(Self.node)
        cron = members["cron"].map(Self.node)
        if case .object(let named)? = members["services"] {
            for (name, entry) in named {
                guard workflow.services.contains(where: { $0.name == name }) else {
                    throw ArgoManifest.Problem(
                        message: "--overlay \(path): services.\(name): \(workflow.file) declares no service '\(name)'")
                }
                services[name] = Self.node(entry)
            }
        }
    }

    /// A value as a manifest node: keys sorted, whole numbers as numbers, other numbers as text
    /// (Kubernetes quantities), nulls left out.
    static func node(_ value: Value) -> ManifestNode {
        switch value {
        case .null: .map([])
        case .bool(let flag): .bool(flag)
        case .number(let number, _):
            number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .string(String(number))
        case .string(let text): .string(text)
        case .array(let items): .list(items.filter { $0 != .null }.map(node))
        case .object(let members):
            .map(members.filter { $0.value != .null }.sorted { $0.key < $1.key }.map { ($0.key, node($0.value)) })
        }
    }
}

extension ManifestNode {
    /// This node with `other` merged in: maps key by key, lists appended, anything else replaced.
    func merging(_ other: ManifestNode) -> ManifestNode {
        switch (self, other) {
        case (.map(var entries), .map(let added)):
            for (key, value) in added {
                if let position = entries.firstIndex(where: { $0.0 == key }) {
                    entries[position].1 = entries[position].1.merging(value)
                } else {
                    entries.append((key, value))
                }
            }
            return .map(entries)
        case (.list(let items), .list(let added)): return .list(items + added)
        default: return other
        }
    }

    /// The value under `key` of a map.
    subscript(key: String) -> ManifestNode? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.0 == key }?.1
    }

    /// A map with `key` set to `value` (replaced where it was, else added at the end).
    func setting(_ key: String, _ value: ManifestNode) -> ManifestNode {
        guard case .map(var entries) = self else { return self }
        if let position = entries.firstIndex(where: { $0.0 == key }) {
            entries[position].1 = value
        } else {
            entries.append((key, value))
        }
        return .map(entries)
    }

    /// A map without `key`.
    func removing(_ key: String) -> ManifestNode {
        guard case .map(let entries) = self else { return self }
        return .map(entries.filter { $0.0 != key })
    }
}

extension ArgoManifest {
    /// The kinds `--kind` makes.
    enum Kind: String, CaseIterable {
        case workflow = "Workflow"
        case workflowTemplate = "WorkflowTemplate"
        case cronWorkflow = "CronWorkflow"
    }

    /// The built `Workflow` with the overlay merged in, as `kind`: a `WorkflowTemplate` or a
    /// `CronWorkflow` has a `name` (`flow-NAME`, as Argo requires one) instead of a
    /// `generateName`, and a `CronWorkflow` holds the spec as its `workflowSpec` beside
    /// `schedules` (Argo v3.6 and later).
    func finishing(_ manifest: ManifestNode) throws(Problem) -> ManifestNode {
        var spec = manifest["spec"] ?? .map([])
        if case .list(let templates)? = spec["templates"] {
            spec = spec.setting("templates", .list(templates.map(overlaid)))
        }
        if let extra = overlay.spec { spec = spec.merging(extra) }
        var metadata = manifest["metadata"] ?? .map([])
        if let extra = overlay.metadata { metadata = metadata.merging(extra) }
        let name = Self.kubernetesName(workflowName)
        switch kind {
        case .workflow:
            guard schedules.isEmpty else {
                throw Problem(message: "--schedule goes with --kind CronWorkflow")
            }
        case .workflowTemplate, .cronWorkflow:
            metadata = metadata.removing("generateName").merging(.map([("name", .string(name))]))
        }
        if kind == .cronWorkflow {
            guard !schedules.isEmpty else {
                throw Problem(message: "--kind CronWorkflow needs --schedule CRON (e.g. --schedule '0 * * * *')")
            }
            var cron = ManifestNode.map([("schedules", .list(schedules.map { .string($0) })), ("workflowSpec", spec)])
            if let extra = overlay.cron { cron = cron.merging(extra) }
            spec = cron
        }
        return manifest.setting("kind", .string(kind.rawValue)).setting("metadata", metadata).setting("spec", spec)
    }

    /// A template with the overlay's `container` merged into its container, and a service's
    /// own entry too.
    private func overlaid(_ template: ManifestNode) -> ManifestNode {
        guard var container = template["container"] else { return template }
        if let extra = overlay.container { container = container.merging(extra) }
        if case .string(let name)? = template["name"],
            let service = workflow.services.first(where: { names.service($0.name) == name }),
            let extra = overlay.services[service.name]
        {
            container = container.merging(extra)
        }
        return template.setting("container", container)
    }
}
