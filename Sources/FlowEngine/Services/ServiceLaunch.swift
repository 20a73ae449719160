import Dispatch
import FlowDSL
import Foundation

/// How a started service is judged ready, with its expressions evaluated.
package enum ReadinessCheck: Sendable, Hashable, CustomStringConvertible {
    /// A GET to the URL answers 2xx.
    case http(String)
    /// 127.0.0.1:port accepts a TCP connection.
    case port(Int)

    /// `GET http://… answers 2xx` or `port N accepts connections`.
    package var description: String {
        switch self {
        case .http(let url): return "GET \(url) answers 2xx"
        case .port(let port): return "127.0.0.1:\(port) accepts connections"
        }
    }

    /// What is polled: the URL, or `127.0.0.1:PORT`.
    package var target: String {
        switch self {
        case .http(let url): return url
        case .port(let port): return "127.0.0.1:\(port)"
        }
    }

    /// The loopback port the check reaches, when it reaches one (a `port` check, or a URL on
    /// 127.0.0.1, localhost or [::1]); nil for a check of another host.
    var loopbackPort: Int? {
        switch self {
        case .port(let port): return port
        case .http(let url):
            guard let components = URLComponents(string: url),
                ["127.0.0.1", "localhost", "::1", "[::1]"].contains(components.host ?? "")
            else { return nil }
            return components.port ?? (components.scheme == "https" ? 443 : 80)
        }
    }
}

/// A service ready to start: its command and readiness check with every expression evaluated.
struct ServiceLaunch: Sendable {
    let service: Service
    let endpoint: ServiceEndpoint
    let spec: ProcessSpec
    let check: ReadinessCheck

    /// How long flow waits after SIGTERM before SIGKILL when it stops a service.
    static let terminationGrace = Duration.seconds(3)

    /// Evaluates every service's command, environment and readiness check. Expressions may read
    /// inputs, env, secrets, services and flow; problems are setup errors naming their place.
    static func prepare(workflow: Workflow, options: RunOptions) throws(RunSetupError) -> [ServiceLaunch] {
        guard !workflow.services.isEmpty else { return [] }
        // The workflow's `env` reaches services as it reaches `run` steps.
        var (values, environment, problems) = RunValues.prepare(workflow, options)
        let empty = RunRecords<StepResult>([:])
        let runner = RunStepRunner(
            values: values, workflowEnvironment: environment, masker: options.secrets.masker,
            queue: DispatchQueue(label: "flow.services.prepare"), defaultRetry: nil)
        var launches: [ServiceLaunch] = []
        for service in workflow.services {
            guard let endpoint = options.services[service.name] else {
                problems.append(StepError("service '\(service.name)' has no port", at: service.location))
                continue
            }
            // Already running elsewhere (`flow run --service NAME=URL`): nothing to start.
            if endpoint.isExternal { continue }
            do {
                var spec = try runner.makeSpec(
                    RunStep(command: service.command, env: service.env, cwd: nil, location: service.location),
                    records: empty)
                // Only the last lines are kept (`ServiceOutputTail`), nothing is captured whole.
                spec.captureLimit = 0
                spec.terminationGrace = terminationGrace
                let check = try readiness(service, endpoint: endpoint, scope: values.scope(for: [], records: empty))
                launches.append(ServiceLaunch(service: service, endpoint: endpoint, spec: spec, check: check))
            } catch {
                problems.append(error)
            }
        }
        guard problems.isEmpty else { throw RunSetupError(problems: problems) }
        return launches
    }

    private static func readiness(
        _ service: Service, endpoint: ServiceEndpoint, scope: ExpressionScope
    ) throws(StepError) -> ReadinessCheck {
        switch service.ready {
        case .ownPort:
            return .port(endpoint.port)
        case .http(let url):
            let text = try url.string(in: scope)
            guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
                throw StepError(
                    "service '\(service.name)': 'ready.http' must be an http:// or https:// URL, not '\(text)'",
                    at: url.location)
            }
            return .http(text)
        case .port(let port):
            let value = try port.evaluate(in: scope)
            let number: Double? =
                switch value {
                case .number(let number, _): number
                case .string(let text): Double(text.trimmingCharacters(in: .whitespaces))
                default: nil
                }
            guard let number, number.rounded() == number, (1...65_535).contains(number) else {
                throw StepError(
                    "service '\(service.name)': 'ready.port' must be a port number (1–65535), not '\(value.interpolated)'",
                    at: port.location)
            }
            return .port(Int(number))
        }
    }
}
