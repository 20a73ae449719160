/// A number, duration or size written as `${{ }}` where flow needs a fixed value — `retry`
/// (its attempts, `delay` and `max-delay`), `timeout` (a step's, a request's, the defaults'),
/// `concurrency`, `chunk-size` — so that
/// `retry: ${{ inputs.retries }}` works. The value is computed once, when the run starts, from
/// what is known then (inputs, env, secrets, services, flow); until then the field holds its
/// default (see `Workflow.resolvingSettings(in:)`).
package struct SettingExpression: Sendable, Hashable {
    /// Which field the value goes to; steps by id (ids are unique across the file).
    package enum Field: Sendable, Hashable {
        /// The workflow's `concurrency`.
        case concurrency
        /// `defaults.timeout` (step nil) or a step's `timeout`.
        case timeout(step: String?)
        /// The attempts of `defaults.retry` (step nil) or a step's `retry`.
        case retryAttempts(step: String?)
        /// `retry.delay`.
        case retryDelay(step: String?)
        /// `retry.max-delay`.
        case retryMaxDelay(step: String?)
        /// An upload's `chunk-size`.
        case chunkSize(step: String)
        /// `defaults.http.timeout` (step nil) or an `http` step's own `timeout` (its per-request limit).
        case httpTimeout(step: String?)

        /// Whose field it is, for messages: " of step 'x'", " in defaults", or nothing.
        var owner: String {
            let step: String?
            switch self {
            case .concurrency: return ""
            case .timeout(let id), .retryAttempts(let id), .retryDelay(let id), .retryMaxDelay(let id),
                .httpTimeout(let id):
                step = id
            case .chunkSize(let id): step = id
            }
            return step.map { " of step '\($0)'" } ?? " in defaults"
        }
    }

    /// What the value must be.
    package enum Kind: Sendable, Hashable {
        /// A whole number of at least `atLeast`.
        case wholeNumber(atLeast: Int)
        /// A duration (`10s`, or a number of seconds).
        case duration
        /// A size in bytes (`5MB`, or a number of bytes), more than 0.
        case size
    }

    /// Where the value goes.
    package let field: Field
    /// What it must be.
    package let kind: Kind
    /// The `${{ }}` text, with its place.
    package let text: ScalarText
    /// The key as messages name it (`'retry'`, `'chunk-size'`).
    package let key: String

    /// Creates a setting expression.
    package init(field: Field, kind: Kind, text: ScalarText, key: String) {
        self.field = field
        self.kind = kind
        self.text = text
        self.key = key
    }
}
