import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// Runs `http` steps: builds the request from the step and the defaults, sends it through FlowHTTP
/// with the step's retry rules, and checks `expect`.
struct HTTPStepRunner: Sendable {
    let client: HTTPClient
    let defaults: Defaults
    /// `defaults.http.base-url`, evaluated when the run started.
    let baseURL: String?
    let values: RunValues
    let masker: SecretMasker
    let queue: DispatchQueue
    /// The limit of a request when the workflow sets no `timeout` (see `requestTimeout`).
    let defaultRequestTimeout: Duration
    /// The workflow file's folder and the process environment, for `tls` files (see `TransportPlan`).
    var transportContext = TransportContext(folder: ".", environment: [:])
    /// The folder of the workflow file: relative `save-to` paths resolve against it.
    var workflowFolder = FileManager.default.currentDirectoryPath
    /// The journal's write-ahead for requests whose repetition is not safe.
    var durability = HTTPDurability(recorder: nil, prefix: "", runID: nil)

    /// Starts the step; the future's value is the `result` object, the attempts made and the
    /// request sent.
    func run(_ step: Step, _ http: HTTPStep, start: StepStart<StepResult>) -> Future<RunnerOutput> {
        let request: HTTPRequest
        let signing: AWSRequestSigning?
        let download: HTTPDownload?
        do {
            (request, signing) = try makeRequest(step, http, start: start)
            download = try makeDownload(step, http, start: start)
        } catch {
            return Future.failed(error, on: queue)
        }
        // The body's hash for `aws-sigv4`, computed once for every attempt (a file is read once).
        let payload = signing.map { $0.payload(of: request.body, on: queue) }
        let readsBase64 = ResponseBodyFields.readsBase64(step, http)
        let hasIdempotencyKey = request.headers.contains("Idempotency-Key")
        let rules = HTTPRetryRules(
            retry: step.retry ?? defaults.retry, method: http.method, hasIdempotencyKey: hasIdempotencyKey)
        let recording = download.flatMap {
            durability.downloadRecording(step: step.id, locals: start.locals, download: $0)
        }
        let writeAhead = durability.writeAhead(
            step: step.id, locals: start.locals, unsafe: !http.method.isIdempotent && !hasIdempotencyKey)
        // Written by each attempt, read once the last has ended. The step queue is concurrent, so a
        // lock rather than a claim about the queue makes that safe.
        let attempts = LockedBox(0)
        let masker = masker
        let expected = http.expect.status
        let future = retry(
            policy: rules.policy(), on: queue,
            onRetry: { failed in
                start.report(
                    .retryWait(
                        StepProgress.RetryWait(
                            attempt: failed.attempt, wait: failed.nextDelay,
                            // One line: the response's lines are for the failure, not each retry.
                            reason: masker(Self.firstLine(describe(failed.error, http: http))),
                            retryAfter: HTTPRetryRules.retryAfter(in: failed.error) != nil)))
            }
        ) { attempt in
            attempts.withLock { $0 = attempt }
            start.report(.attempt(attempt))
            let durability = durability
            // `delay` waits on a timer (no thread held) before the first attempt only: a retry
            // waits its own `retry.delay`. Cancelling the step cancels the timer.
            let delay = Future.delay(attempt == 1 ? http.delay ?? .zero : .zero, on: queue)
            let sent = delay.flatMap(on: queue) { _ in writeAhead(queue) }
                .flatMap(on: queue) { _ -> Future<HTTPRequest> in
                    guard let signing, let payload else { return Future.succeeded(request, on: queue) }
                    return payload.map(on: queue) { payload in
                        try signing.sign(request, payload: payload, date: Date())
                    }
                }
                .flatMap(on: queue) { request in send(request, download, recording: recording) }
            sent.whenComplete(on: queue) { result in
                var error: (any Error)?
                if case .failure(let failure) = result { error = failure }
                durability.attemptEnded(step: step.id, locals: start.locals, error: error)
            }
            return sent.flatMap(on: queue) { response in
                if !response.droppedHeaders.isEmpty, let place = response.droppedHeadersAt {
                    let names = response.droppedHeaders.joined(separator: ", ")
                    let note = "flow: dropped \(names) (holding a secret) on the redirect to \(place), another origin"
                    start.report(.line(masker(note), stream: .stderr))
                }
                guard expected.matches(response.status) else {
                    throw UnexpectedStatus(expected: expected, response: response, masker: masker)
                }
                return Future.succeeded(response, on: queue)
            }
        }
        .flatMapError(on: queue) { error in
            Future.failed(rules.explainingNoRetry(describe(error, http: http), failure: error), on: queue)
        }
        .map(on: queue) { response in
            let line = request.line
            let result = try Self.result(of: response, download: download, base64: readsBase64, at: http.location)
                .adding("request", .object(["method": .string(line.method), "url": .string(line.url)]))
            do {
                try Self.check(http.expect, result: result, values: values, start: start, masker: masker)
            } catch let error as StepError {
                var failed = error
                failed.response = ResponseExcerpt.text(response, masker: masker)
                throw failed
            }
            return RunnerOutput(result: result, attempts: attempts.withLock { $0 }, request: line)
        }
        if let download {
            future.whenFailure(on: queue) { _ in download.abandon() }
        }
        return future
    }

    /// `result` for an HTTP step: status, the header fields (see `ResponseHeaderFields`: headers
    /// under lower-cased names, every value of each, cookies, the HTTP version), url, `duration`
    /// (the exchange in seconds, as curl timed it) and the body's fields (see `ResponseBodyFields`:
    /// text and parsed JSON when the body is UTF-8, `bytes`, `base64`).
    static func result(of response: HTTPResponse, base64: Bool = false) -> Value {
        var fields = ResponseBodyFields.fields(of: response.body, base64: base64)
        fields.merge(ResponseHeaderFields.fields(of: response)) { _, header in header }
        fields["status"] = .number(Double(response.status))
        fields["url"] = .string(response.effectiveURL)
        fields["duration"] = .number(Self.seconds(response.timings.total))
        return .object(fields)
    }

    /// An error's message without the response lines a `StepError` may carry.
    static func firstLine(_ error: any Error) -> String {
        (error as? StepError)?.message ?? String(describing: error)
    }

    /// `duration` in seconds, as a number.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private func makeRequest(_ step: Step, _ http: HTTPStep, start: StepStart<StepResult>) throws(StepError)
        -> (HTTPRequest, AWSRequestSigning?)
    {
        let texts =
            [http.url] + http.query.map(\.value) + http.headers.map(\.value) + bodyTexts(http.body)
            + (http.bodyRange?.texts ?? [])
        let scope = values.scope(
            for: texts + defaults.http.headers.map(\.value) + http.transport.texts + defaults.http.transportTexts,
            records: start.records, locals: start.locals)
        let plan: RequestPlan
        do {
            plan = try RequestPlan(
                http, defaults: defaults.http, baseURL: baseURL,
                text: { text throws(StepError) in try text.string(in: scope) },
                json: { template throws(StepError) in try template.value(in: scope).jsonText },
                folder: workflowFolder,
                path: { text, key throws(StepError) in
                    try WorkflowPath.resolve(
                        text, key: key, in: scope, folder: workflowFolder, allowOutside: step.allowOutside
                    ).path
                })
        } catch {
            throw StepError(masker(error.message), at: error.location)
        }
        var body = HTTPBody.empty
        switch plan.body {
        case .none:
            break
        case .json(let text), .form(let text), .text(let text):
            body = .bytes(Array(text.utf8))
        case .binary(let bytes):
            body = .bytes(bytes)
        case .binaryKnownAtRunTime:
            break
        case .file(let file):
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                let size = (attributes[.size] as? NSNumber)?.int64Value,
                FileManager.default.isReadableFile(atPath: file)
            else {
                let location: SourceLocation
                if case .file(let path)? = http.body { location = path.location } else { location = http.location }
                throw StepError(
                    "cannot read body-file '\(masker(file))' (a relative path is read from the workflow file's folder)",
                    at: location)
            }
            body = try Self.fileBody(file, size: size, range: http.bodyRange, masker: masker) {
                text throws(StepError) in try text.string(in: scope)
            }
        case .multipart(let parts):
            var fields: [MultipartField] = []
            for part in parts { fields.append(try multipartField(part)) }
            body = .multipart(fields)
        }
        var request = HTTPRequest(
            method: plan.method, url: plan.url, headers: HTTPHeaders(plan.headers.map { ($0.name, $0.value) }),
            body: body, timeout: requestTimeout(step, http),
            followRedirects: http.followRedirects ?? defaults.http.followRedirects ?? true,
            maxResponseBodySize: maxBody(http))
        // A header holding a secret goes to the first URL's origin only: a redirect elsewhere drops it.
        request.originBoundHeaders = plan.headers.filter { masker($0.value) != $0.value }.map(\.name)
        request.allowsInsecureRedirect = http.allowInsecureRedirect
        request.keepsCredentialsOnRedirect = http.keepCredentialsOnRedirect
        request.decodesContent = http.compressed ?? defaults.http.compressed ?? true
        request.version = http.version.flatMap { HTTPVersion(rawValue: $0.rawValue) }
        try transportContext.apply(
            http.transport, defaults: defaults.http, to: &request, at: http.location, scope: scope, masker: masker)
        var signing: AWSRequestSigning?
        if case .awsSigV4(let auth)? = http.transport.auth ?? defaults.http.transport.auth {
            signing = try AWSRequestSigning(
                auth, environment: transportContext.environment, masker: masker,
                text: { text throws(StepError) in try text.string(in: scope) })
        }
        return (request, signing)
    }

    /// `http.timeout`, else `defaults.http.timeout`; else, when no `timeout` bounds the whole
    /// step either (it may be meant to allow a longer request), `defaultRequestTimeout`: a server
    /// that never answers must not hang the run.
    private func requestTimeout(_ step: Step, _ http: HTTPStep) -> Duration? {
        if let timeout = http.timeout ?? defaults.http.timeout { return timeout }
        return step.timeout ?? defaults.timeout == nil ? defaultRequestTimeout : nil
    }

    private func bodyTexts(_ body: HTTPStep.Body?) -> [ScalarText] {
        switch body {
        case nil: return []
        case .json(let template)?: return template.strings
        case .form(let fields)?: return fields.map(\.value)
        case .text(let text)?, .file(let text)?, .binary(let text, _)?: return [text]
        case .multipart(let parts)?: return parts.flatMap(\.texts)
        }
    }

    /// Fails with the first `expect.headers` or `expect.assert` entry that does not hold for
    /// `result` (see `ExpectationCheck`).
    static func check(
        _ expect: Expectation, result: Value, values: RunValues, start: StepStart<StepResult>, masker: SecretMasker
    ) throws(StepError) {
        try ExpectationCheck.run(expect, result: result, values: values, start: start, masker: masker)
    }

    private func describe(_ error: any Error, http: HTTPStep) -> any Error {
        switch error {
        case let unexpected as UnexpectedStatus:
            var failed = StepError(unexpected.description, at: http.expect.location ?? http.location)
            failed.response = ResponseExcerpt.text(unexpected.response, masker: masker)
            return failed
        case let transport as HTTPError where transport.kind == .bodyTooLarge:
            return StepError(masker(bodyTooLarge(transport, http: http)), at: http.location)
        case let transport as HTTPError where transport.kind == .fileTooLarge:
            return StepError(masker(fileTooLarge(transport, http: http)), at: http.location)
        case let setup as DownloadSetupError:
            return StepError(masker(setup.message), at: http.responseBody.saveTo?.location ?? http.location)
        case let transport as HTTPError:
            // curl's text may quote the server (a malformed status line): escaped like server text.
            var message = Echo.escapingUnprintable(masker(transport.description))
            // The limit that passed is the one flow set for want of one in the file.
            if transport.timeLimit == .request(defaultRequestTimeout), http.timeout ?? defaults.http.timeout == nil {
                message += "; that is flow's default limit for a request, set 'timeout' to change it"
            }
            return StepError(message, at: http.location)
        default:
            return error
        }
    }
}

extension ValueTemplate {
    /// The JSON value, with every string evaluated.
    func value(in scope: ExpressionScope) throws(StepError) -> Value {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number, let float): return .number(number, float: float)
        case .string(let text): return try text.evaluate(in: scope)
        case .array(let items):
            var values: [Value] = []
            for item in items { values.append(try item.value(in: scope)) }
            return .array(values)
        case .object(let members):
            var object: [String: Value] = [:]
            for member in members { object[member.key] = try member.value.value(in: scope) }
            return .object(object)
        }
    }
}

extension Value {
    /// This object with `key` set to `value` (a value that is not an object is returned as is).
    func adding(_ key: String, _ value: Value) -> Value {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
