// When a `retry` can never apply: a POST or PATCH is not sent again by default, since a server
// may have done the work before the failure. The words are shared by `flow validate`'s warning
// and the run's failure line, so both say the same thing.

extension Retry {
    /// Whether this policy retries nothing for a request with `method`: its default conditions
    /// (no `on`) skip a POST or PATCH that carries no `Idempotency-Key` header.
    package func neverApplies(to method: HTTPMethod, hasIdempotencyKey: Bool) -> Bool {
        attempts > 1 && on.isEmpty && !method.isIdempotent && !hasIdempotencyKey
    }

    /// Why such a request is not sent again: "a POST without an 'Idempotency-Key' header is not
    /// sent again, since the server may have done the work".
    package static func whyNotRetried(_ method: HTTPMethod) -> String {
        "a \(method.rawValue) without an 'Idempotency-Key' header is not sent again, since the server may have done the work"
    }

    /// How a workflow allows such a retry.
    package static let howToAllowRetry =
        "to allow it, send 'Idempotency-Key: ${{ idempotencyKey() }}' (if the server honours it) "
        + "or list what to retry in 'retry.on', e.g. on: [503, connection-error]"
}
