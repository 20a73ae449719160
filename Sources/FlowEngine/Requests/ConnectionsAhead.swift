import FlowDSL
import Foundation

/// The connections to open while a request runs, for the requests that will follow it together to
/// the same host (issue 32).
///
/// Two `http` steps that both need `login`, to `login`'s host, start together when it ends.
/// HTTP/1.1 carries one request at a time on a connection: one of them reuses `login`'s, the
/// other would wait a connection set-up (over a slow link, a round trip) after `login` answered.
/// Opened while `login` runs, that connection is ready when it is needed.
///
/// Only what is known before the run starts counts: top-level `http` steps without `if`,
/// `for-each` or `repeat` (which may send no request, or many), whose URL reads nothing but
/// `inputs` and `env`, over plain `http://` (over TLS, requests to one host wait for the first
/// handshake to learn whether the server multiplexes), with no proxy and no `http-version: 1.0`
/// (which closes its connection).
struct ConnectionsAhead: Sendable {
    /// Where to connect and how many connections, when the step starts.
    struct Need: Sendable, Equatable {
        let url: String
        let connections: Int
    }

    /// The needs by the id of the step whose start opens them.
    let byStep: [String: Need]

    /// None.
    init() {
        byStep = [:]
    }

    /// Finds, for each step, its dependents that will go to its own host together.
    init(_ workflow: Workflow, baseURL: String?, values: RunValues, environment: [String: String]) {
        guard Self.usesNoProxy(workflow.defaults.http, environment: environment) else {
            byStep = [:]
            return
        }
        var origins: [String: String] = [:]
        for step in workflow.steps {
            if let origin = Self.origin(of: step, baseURL: baseURL, values: values) { origins[step.id] = origin }
        }
        // A step and a dependent both with an origin, or nothing to open: a workflow without such
        // requests skips the two walks below, each a copy of every step (issue 32).
        guard origins.count > 1 else {
            byStep = [:]
            return
        }
        // Counted need by need, once for the whole workflow: a search of every step for each
        // step's dependents would be quadratic in a 10,000-step file.
        var together: [String: Int] = [:]
        for dependent in workflow.steps where dependent.condition == nil {
            guard let origin = origins[dependent.id] else { continue }
            for need in Set(dependent.needs) where origins[need] == origin {
                together[need, default: 0] += 1
            }
        }
        var needs: [String: Need] = [:]
        for step in workflow.steps where step.forEach == nil && step.repeat == nil {
            // One of them takes the connection this step leaves idle.
            guard let origin = origins[step.id], let count = together[step.id], count > 1 else { continue }
            needs[step.id] = Need(url: origin, connections: count - 1)
        }
        byStep = needs
    }

    /// `scheme://host:port/` of the step's request when it is known before the run starts, and
    /// its connection is one HTTP/1.1 keeps and shares; nil otherwise.
    private static func origin(of step: Step, baseURL: String?, values: RunValues) -> String? {
        guard case .http(let http) = step.kind, step.parent == nil, step.forEach == nil, step.repeat == nil,
            http.version == nil || http.version == .http1_1, http.transport.proxy == nil,
            let template = http.url.template,
            template.expressions.allSatisfy({
                $0.expression.references.allSatisfy { ["inputs", "env"].contains($0.root) }
            })
        else { return nil }
        guard let text = try? http.url.string(in: values.scope(for: [http.url], records: RunRecords([:]))),
            let url = try? RequestPlan.absoluteURL(text, baseURL: baseURL, at: http.url.location),
            let parts = URLComponents(string: url), parts.scheme?.lowercased() == "http", let host = parts.host,
            !host.isEmpty
        else { return nil }
        return "http://\(host):\(parts.port ?? 80)/"
    }

    /// No proxy from the defaults or from curl's environment variables: through a proxy, curl
    /// connects to it, not to the host.
    private static func usesNoProxy(_ defaults: HTTPDefaults, environment: [String: String]) -> Bool {
        guard defaults.transport.proxy == nil else { return false }
        let names = ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"]
        return !names.contains { environment[$0]?.isEmpty == false }
    }
}
