import FlowDSL
import FlowKit

extension ArgoManifest {
    /// A step's `retry` as an Argo `retryStrategy`, for the pods Argo loses (`retryPolicy:
    /// OnError`: a pod deleted, evicted or whose node went away); the step's own failures are
    /// retried inside the pod by flow, with `retry.on`, `Retry-After`, `jitter` and every
    /// other rule, so no attempt is counted twice.
    ///
    /// Argo waits `duration × factor^(n-1)` before retry n, each wait cut to `cap`, and gives up
    /// once `maxDuration` has passed since the first attempt began (argo-workflows
    /// `workflow/controller/operator.go`, `processNodeRetries`). So `delay` is `duration`,
    /// `exponential` is `factor: 2`, `constant` is no factor, and `max-delay` (flow's longest
    /// single wait) is `cap`, never `maxDuration`, which flow has no counterpart of (and which
    /// also shortens the retried pod's deadline). `linear` (`delay × n`) is not a power: its
    /// waits `d, 2d, 3d` are exponential ones capped at `3d`, so up to 4 attempts map exactly and
    /// more are refused. Argo has no jitter: its waits are the longest `jitter: full` allows.
    func retryStrategy(_ retry: Retry, step: Step) throws(Problem) -> ManifestNode {
        var backoff: [(String, ManifestNode)] = [("duration", .string(Self.durationText(retry.delay)))]
        var cap = retry.maxDelay
        switch retry.backoff {
        case .exponential:
            backoff.append(("factor", .int(2)))
        case .constant:
            break
        case .linear:
            guard retry.attempts <= 4 else {
                throw Problem(
                    message: "\(retry.location): step '\(step.id)': retry backoff linear waits delay × n, which Argo "
                        + "cannot express for \(retry.attempts) attempts (its waits are duration × factor^(n-1), "
                        + "cut to cap; linear maps exactly up to 4 attempts); use backoff: exponential or "
                        + "constant, or at most 4 attempts")
            }
            if retry.attempts > 2 {
                backoff.append(("factor", .int(2)))
                let longest = retry.delay * (retry.attempts - 1)
                cap = min(cap ?? longest, longest)
            }
        }
        if let cap { backoff.append(("cap", .string(Self.durationText(cap)))) }
        return .map([
            ("limit", .int(retry.attempts - 1)), ("retryPolicy", .string("OnError")), ("backoff", .map(backoff)),
        ])
    }

    /// What the retry mapping tells the user: the steps whose `jitter: full` Argo cannot add
    /// to its waits between lost pods' retries.
    func retryWarnings() -> [String] {
        workflow.steps.compactMap { step in
            guard let retry = step.retry ?? (step.children.isEmpty ? workflow.defaults.retry : nil),
                retry.attempts > 1, retry.jitter == .full
            else { return nil }
            return "step '\(step.id)': Argo has no retry jitter; a lost pod is retried after the full wait "
                + "(flow's own retries inside the pod keep jitter: full)"
        }
    }
}
