import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// A response whose status the step did not expect; carries it so retry rules can look at it.
struct UnexpectedStatus: Error, CustomStringConvertible {
    let expected: StatusPattern
    let response: HTTPResponse
    let masker: SecretMasker

    var description: String {
        "expected status \(expected), " + Self.got(response, masker: masker)
    }

    /// `got 403 Forbidden; the response began: …` — the status with its reason phrase and the
    /// start of the body, masked before it is cut (cutting first would show the start of a secret
    /// that crosses the cut), then with control characters escaped: the server wrote it, and an
    /// escape sequence must not reach the terminal that shows the message.
    static func got(_ response: HTTPResponse, masker: SecretMasker) -> String {
        let reason = reasons[response.status].map { " \($0)" } ?? ""
        let body = masker.maskedPrefix(response.text, maxLength: 300)
        var text = "got \(response.status)\(reason)"
        if !body.isEmpty {
            text += "; the response began: \(Echo.escapingUnprintable(body.replacingOccurrences(of: "\n", with: " ")))"
        }
        return text
    }
}

extension UnexpectedStatus {
    /// Reason phrases for the statuses people meet most, for messages.
    static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 412: "Precondition Failed",
        413: "Content Too Large", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout", 301: "Moved Permanently",
        302: "Found", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
    ]
}

/// Which failed HTTP attempts are tried again, and how long to wait: the contract's defaults
/// (connection errors, time-outs, 429 and 5xx, idempotent requests only) or the step's `retry.on`.
struct HTTPRetryRules {
    let retry: Retry?
    let method: HTTPMethod
    let hasIdempotencyKey: Bool

    /// The policy for `retry` (1 attempt when there is none).
    func policy() -> RetryPolicy {
        let rules = self
        return RetryPolicy(retry, shouldRetry: { rules.shouldRetry($0) }, delayOverride: { Self.retryAfter(in: $0) })
    }

    /// Whether `error` (from one attempt) is worth another attempt.
    func shouldRetry(_ error: any Error) -> Bool {
        guard let retry else { return false }
        if !retry.on.isEmpty {
            return retry.on.contains { condition in
                switch condition {
                case .status(let pattern):
                    return (error as? UnexpectedStatus).map { pattern.matches($0.response.status) } ?? false
                case .connectionError:
                    guard let http = error as? HTTPError else { return false }
                    return http.kind == .connect || http.kind == .connectionReset || http.kind == .dns
                case .timeout:
                    return (error as? HTTPError)?.kind == .timeout
                }
            }
        }
        // Repeating a POST or PATCH could do the work twice: only when the step says it is safe.
        guard method.isIdempotent || hasIdempotencyKey else { return false }
        if let http = error as? HTTPError { return http.isTransient }
        if let unexpected = error as? UnexpectedStatus {
            return unexpected.response.status == 429 || (500...599).contains(unexpected.response.status)
        }
        return false
    }

    /// `described` (the step's failure, from `error`) with why `retry` did not send the request
    /// again and how to allow it, when the step has a `retry` that would have retried `error` for
    /// a GET but never applies to its POST or PATCH (see `Retry.neverApplies`).
    func explainingNoRetry(_ described: any Error, failure error: any Error) -> any Error {
        guard let retry, retry.neverApplies(to: method, hasIdempotencyKey: hasIdempotencyKey),
            HTTPRetryRules(retry: retry, method: .get, hasIdempotencyKey: false).shouldRetry(error),
            let failure = described as? StepError
        else { return described }
        var explained = StepError(
            failure.message + "; not retried: \(Retry.whyNotRetried(method)); \(Retry.howToAllowRetry)",
            at: failure.location, retryable: failure.retryable)
        explained.response = failure.response
        return explained
    }

    /// The wait a `Retry-After` header asks for: seconds, or an HTTP date.
    static func retryAfter(in error: any Error) -> Duration? {
        (error as? UnexpectedStatus).flatMap { retryAfter(in: $0.response) }
    }

    /// The wait a response's `Retry-After` header asks for, if it has one.
    static func retryAfter(in response: HTTPResponse) -> Duration? {
        guard let value = response.headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value), seconds >= 0 {
            return .milliseconds(Int64(seconds * 1000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
    }
}
