import FlowDSL
import FlowHTTP

/// What the runners need besides the step to plan a request's transport: the workflow file's
/// folder (relative `tls` files) and the process environment (`SSL_CERT_FILE`, `CURL_CA_BUNDLE`).
struct TransportContext: Sendable {
    let folder: String
    let environment: [String: String]

    /// Sets `request`'s TLS, proxy and cookie options from a step's `settings` over the defaults'.
    /// Fails, naming the key and its place, when a value cannot be computed or a file is missing.
    func apply(
        _ settings: HTTPTransportSettings, defaults: HTTPDefaults, to request: inout HTTPRequest,
        at location: SourceLocation, scope: ExpressionScope, masker: SecretMasker
    ) throws(StepError) {
        let plan = try self.plan(settings, defaults: defaults, scope: scope, masker: masker)
        let secure = request.url.lowercased().hasPrefix("https://")
        if let problem = plan.unreadableFiles(at: location, environment: secure).first {
            throw StepError(masker(problem.message), at: problem.location)
        }
        request.verifyTLS = !plan.insecure
        request.transport = plan.options
    }

    /// The plan of a step's `settings` over the defaults'.
    func plan(
        _ settings: HTTPTransportSettings, defaults: HTTPDefaults, scope: ExpressionScope, masker: SecretMasker
    ) throws(StepError) -> TransportPlan {
        do {
            return try TransportPlan(
                settings.overriding(defaults.transport), noProxy: defaults.noProxy, folder: folder,
                environment: environment, text: { text throws(StepError) in try text.string(in: scope) })
        } catch {
            throw StepError(masker(error.message), at: error.location)
        }
    }
}
