import FlowDSL
import FlowEngine
import Foundation

extension DryRunPlan {
    /// The TLS files, verification, proxy and cookie jar a request uses, as `TransportPlan`
    /// computes them for the run (secrets masked, runtime values as placeholders).
    /// A CA file from the environment is shown for `https://` URLs only (`secure`): it means
    /// nothing to plain HTTP.
    func transportLines(_ settings: HTTPTransportSettings, secure: Bool) -> [String] {
        let defaults = workflow.defaults.http
        var lines: [String] = []
        if let auth = settings.auth ?? defaults.transport.auth, case .basic(let user, _) = auth {
            lines.append("      auth basic as \(renderText(user)) (password masked)")
        }
        do {
            let plan = try TransportPlan(
                settings.overriding(defaults.transport), noProxy: defaults.noProxy,
                folder: workflow.folder, environment: ProcessInfo.processInfo.environment,
                text: { renderText($0) })
            let fromEnvironment = plan.caFile.map { !$0.source.hasPrefix("tls.") } ?? false
            lines += plan.described.filter { secure || !fromEnvironment || !$0.hasPrefix(plan.caFile?.source ?? "") }
                .map { "      \($0)" }
        } catch {
            lines.append("      error: \(error.message)")
        }
        return lines
    }
}
