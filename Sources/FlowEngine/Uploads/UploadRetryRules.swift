import FlowDSL
import FlowHTTP
import FlowTasks

/// Which errors of an upload are worth asking the server and continuing, and how long to wait.
///
/// Always: lost connections and time-outs, 408, 423, 429 and 5xx, and the protocols' own "you are
/// out of step" answers — 409 and 416 (offset mismatch) and 460 (checksum mismatch) — which asking
/// the server resolves. Statuses in the step's `retry.on` are added. Other 4xx answers are final:
/// the server refused, and sending again would not change its mind.
struct UploadRetryRules: Sendable {
    /// The step's `retry`, else `defaults.retry`, else `defaultRetry`.
    let retry: Retry

    init(_ retry: Retry?) {
        self.retry = retry ?? Self.defaultRetry
    }

    /// Without any `retry`, an upload still resumes: 5 attempts per stretch without progress,
    /// 500 ms apart, doubling up to 10 s (Grammar.md: upload).
    static let defaultRetry = Retry(
        attempts: 5, delay: .milliseconds(500), backoff: .exponential, maxDelay: .seconds(10),
        location: SourceLocation(file: "", line: 0, column: 0))

    /// The attempts and delays; `Retry-After` is honoured.
    func policy() -> RetryPolicy {
        let rules = self
        return RetryPolicy(
            retry, shouldRetry: { rules.shouldRetry($0) },
            delayOverride: { error in
                (error as? UploadStatusError).flatMap { HTTPRetryRules.retryAfter(in: $0.response) }
            })
    }

    /// Whether `error` may be overcome by asking the server and continuing.
    func shouldRetry(_ error: any Error) -> Bool {
        switch error {
        case let http as HTTPError:
            return http.isTransient
        case let status as UploadStatusError:
            let code = status.response.status
            if [409, 416, 460, 408, 423, 429].contains(code) || (500...599).contains(code) { return true }
            return retry.on.contains { condition in
                if case .status(let pattern) = condition { return pattern.matches(code) }
                return false
            }
        case is UploadProtocolError:
            // The server's answers did not add up (an offset that did not move): ask it again.
            return true
        default:
            return false
        }
    }
}
