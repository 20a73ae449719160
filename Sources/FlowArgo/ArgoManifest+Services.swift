import FlowDSL
import FlowKit
import Foundation

/// A service of the workflow as an Argo daemon task (see `ArgoManifest.services`).
struct ServiceTask {
    let name: String
    /// The task's and the template's name.
    let task: String
    let port: Int
    let template: ManifestNode
    /// The services this one reads (`services.OTHER.url`): its task waits for theirs.
    var reads: [String] = []
}

extension ArgoManifest {
    /// Each service becomes a daemon task (`daemon: true`) in the image, listening on its own
    /// port with a readiness probe from its `ready`; step tasks wait for it (`.Daemoned`) and
    /// reach it at `{{tasks.service-NAME.ip}}` (`flow run --service`). Its command may read
    /// only `flow.executable` and its own `services.NAME.port` / `.url`, which are known here.
    func services(warnings: inout [String]) throws(Problem) -> [ServiceTask] {
        var tasks: [ServiceTask] = []
        for (position, service) in workflow.services.enumerated() {
            let port = servicePort + position
            let task = names.service(service.name)
            // Another service's URL is its daemon task's address, given as an input parameter.
            let others = workflow.services.enumerated().filter { $0.element.name != service.name }
            let reads = others.filter { other in
                service.texts.contains { $0.text.contains("services.\(other.element.name).") }
            }
            let known = reads.flatMap { other -> [(String, String)] in
                let address = "{{inputs.parameters.\(names.service(other.element.name))}}"
                let otherPort = servicePort + other.offset
                return [
                    ("services.\(other.element.name).port", String(otherPort)),
                    ("services.\(other.element.name).url", "http://\(address):\(otherPort)"),
                ]
            }
            let substitute = { (text: ScalarText) throws(Problem) -> String in
                try Self.substitute(text, service: service.name, port: port, others: known)
            }
            var command: [ManifestNode]
            switch service.command {
            case .script(let script):
                let text = try substitute(script)
                command = [.string("/bin/sh"), .string("-c"), .string(text)]
            case .arguments(let arguments):
                command = []
                for argument in arguments {
                    let text = try substitute(argument)
                    command.append(.string(text))
                }
            }
            if case .string(let first) = command.first, first == "/usr/local/bin/flow" || first == "flow" {
                command[0] = .string("flow")
            }
            command = command.map { part in
                guard case .string(let text) = part else { return part }
                return .string(Self.listeningEverywhere(text, service: service.name, warnings: &warnings))
            }
            var env: [ManifestNode] = [
                // `flow sandbox` listens on every address, so other pods reach it.
                .map([("name", .string("FLOW_SANDBOX_HOST")), ("value", .string("0.0.0.0"))])
            ]
            for variable in service.env {
                let value = Self.listeningEverywhere(
                    try substitute(variable.value), service: service.name, warnings: &warnings)
                env.append(.map([("name", .string(variable.name)), ("value", .string(value))]))
            }
            let probe: ManifestNode
            switch service.ready {
            case .http(let url):
                let text = try substitute(url)
                let path = URLComponents(string: text)?.path ?? "/"
                probe = .map([("httpGet", .map([("path", .string(path.isEmpty ? "/" : path)), ("port", .int(port))]))])
            case .port(let text):
                let value = try substitute(text)
                guard let number = Int(value) else {
                    throw Problem(message: "service '\(service.name)': ready.port '\(value)' is not a number")
                }
                probe = .map([("tcpSocket", .map([("port", .int(number))]))])
            case .ownPort:
                probe = .map([("tcpSocket", .map([("port", .int(port))]))])
            }
            let container: [(String, ManifestNode)] = [
                ("image", .string(image)), ("command", .list(Array(command.prefix(1)))),
                ("args", .list(Array(command.dropFirst()))), ("env", .list(env)), ("readinessProbe", probe),
                ("startupProbe", Self.startupProbe(probe, timeout: service.timeout)),
                ("workingDir", .string(Self.mountPath)), ("volumeMounts", .list(workflowMounts)),
            ]
            var entries: [(String, ManifestNode)] = [("name", .string(task)), ("daemon", .bool(true))]
            let readTasks = reads.map { names.service($0.element.name) }
            if !readTasks.isEmpty {
                entries.append(
                    ("inputs", .map([("parameters", .list(readTasks.map { .map([("name", .string($0))]) }))])))
            }
            entries.append(("container", .map(container)))
            tasks.append(
                ServiceTask(name: service.name, task: task, port: port, template: .map(entries), reads: readTasks))
        }
        return tasks
    }

    /// The text with `flow.executable` and the service's own port and URL filled in; a problem
    /// naming the expression for anything else (an input, a secret: known only in the run).
    static func substitute(_ text: ScalarText, service: String, port: Int, others: [(String, String)] = [])
        throws(Problem) -> String
    {
        var result = text.text
        let known: [(String, String)] =
            others + [
                ("flow.executable", "flow"), ("services.\(service).port", String(port)),
                // Its own URL, where it listens: every address, so the steps' pods reach it.
                ("services.\(service).url", "http://0.0.0.0:\(port)"),
            ]
        for (expression, value) in known {
            for spelling in ["${{ \(expression) }}", "${{\(expression)}}"] {
                result = result.replacingOccurrences(of: spelling, with: value)
            }
        }
        if let start = result.range(of: "${{") {
            let end = result.range(of: "}}", range: start.upperBound..<result.endIndex)?.upperBound ?? result.endIndex
            throw Problem(
                message: "\(text.location): service '\(service)' reads \(result[start.lowerBound..<end]); an exported "
                    + "service may read only flow.executable and services.\(service).port / .url")
        }
        return result
    }

    /// A service's command or env text with `127.0.0.1` and `localhost` as `0.0.0.0`, and a
    /// warning when it had any: a daemon task bound to the loopback address is not reachable
    /// from the step pods (nor by its probe, which Kubernetes sends to the pod's IP), so it
    /// would never be ready. `0.0.0.0` listens on every address of the pod.
    static func listeningEverywhere(_ text: String, service: String, warnings: inout [String]) -> String {
        var result = text
        for loopback in ["127.0.0.1", "localhost"] {
            result = result.replacingOccurrences(of: loopback, with: "0.0.0.0")
        }
        if result != text {
            warnings.append(
                "service '\(service)': '\(text)' names the loopback address; in the pod it is '\(result)', so the "
                    + "steps' pods reach the service at its pod's IP")
        }
        return result
    }

    /// A startup probe doing what `probe` does once a second for the service's `ready`
    /// timeout: a service that never gets ready fails its pod then (Argo then omits the steps
    /// that wait for it) instead of leaving the workflow waiting forever.
    static func startupProbe(_ probe: ManifestNode, timeout: Duration) -> ManifestNode {
        guard case .map(let entries) = probe else { return probe }
        let seconds = Int(
            (Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18).rounded(.up))
        return .map(entries + [("periodSeconds", .int(1)), ("failureThreshold", .int(max(1, seconds)))])
    }
}
