/// A `services:` entry: a local process flow starts before the first step, waits for, and stops
/// when the run ends. Its port is chosen by flow and read as `services.<name>.port`.
package struct Service: Sendable, Hashable {
    /// How flow decides that a service is ready.
    package enum Readiness: Sendable, Hashable {
        /// `http: URL`: a GET to the URL answers 2xx.
        case http(ScalarText)
        /// `port: N`: 127.0.0.1:N accepts TCP connections (a number, or an expression).
        case port(ScalarText)
        /// No `ready`: the service's own port accepts connections.
        case ownPort
    }

    /// The name (step-id syntax), read as `services.<name>`.
    package let name: String
    /// Where the name is written.
    package let location: SourceLocation
    /// The command, as in `run` steps: a script for `/bin/sh -c` or an argv.
    package let command: RunStep.Command
    /// Extra environment variables (on top of the workflow's `env`).
    package let env: [NamedValue]
    /// The readiness check.
    package let ready: Readiness
    /// How long flow waits for readiness.
    package let timeout: Duration

    /// The default readiness timeout.
    package static let defaultTimeout = Duration.seconds(30)
    /// The properties `services.<name>` has.
    package static let properties = ["port", "url"]

    /// Creates a service.
    package init(
        name: String, location: SourceLocation, command: RunStep.Command, env: [NamedValue], ready: Readiness,
        timeout: Duration = Service.defaultTimeout
    ) {
        self.name = name
        self.location = location
        self.command = command
        self.env = env
        self.ready = ready
        self.timeout = timeout
    }

    /// Every text of the service that may hold expressions, in file order.
    package var texts: [ScalarText] {
        var texts: [ScalarText]
        switch command {
        case .script(let script): texts = [script]
        case .arguments(let arguments): texts = arguments
        }
        texts += env.map(\.value)
        switch ready {
        case .http(let url): texts.append(url)
        case .port(let port): texts.append(port)
        case .ownPort: break
        }
        return texts
    }
}
