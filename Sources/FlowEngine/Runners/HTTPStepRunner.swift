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

    /// Starts the step; the future's value is the `result` object and the attempts made.
    func run(_ step: Step, _ http: HTTPStep, start: StepStart<StepResult>) -> Future<(Value, Int)> {
        let request: HTTPRequest
        do {
            request = try makeRequest(step, http, records: start.records)
        } catch {
            return Future.failed(error, on: queue)
        }
        let rules = HTTPRetryRules(
            retry: step.retry ?? defaults.retry, method: http.method,
            hasIdempotencyKey: request.headers.contains("Idempotency-Key"))
        let attempts = Attempts()
        let masker = masker
        let expected = http.expect.status
        return retry(policy: rules.policy(), on: queue) { attempt in
            attempts.count = attempt
            start.report(.attempt(attempt))
            return client.execute(request).flatMap(on: queue) { response in
                guard expected.matches(response.status) else {
                    throw UnexpectedStatus(expected: expected, response: response, masker: masker)
                }
                return Future.succeeded(response, on: queue)
            }
        }
        .flatMapError(on: queue) { error in
            Future.failed(describe(error, http: http), on: queue)
        }
        .map(on: queue) { response in
            let result = Self.result(of: response)
            try Self.check(http.expect, result: result, values: values, records: start.records)
            return (result, attempts.count)
        }
    }

    /// `result` for an HTTP step: status, headers (lower-cased names), body text and parsed JSON
    /// (absent when the body is not JSON).
    static func result(of response: HTTPResponse) -> Value {
        var headers: [String: Value] = [:]
        for (name, value) in response.headers where headers[name.lowercased()] == nil {
            headers[name.lowercased()] = .string(value)
        }
        let text = response.text
        var fields: [String: Value] = [
            "status": .number(Double(response.status)),
            "headers": .object(headers),
            "body": .string(text),
            "url": .string(response.effectiveURL),
        ]
        // Left out when the body is not JSON, so that reading it fails (see `ResponseJSON`).
        fields["json"] = ResponseJSON.value(of: text)
        return .object(fields)
    }

    private func makeRequest(_ step: Step, _ http: HTTPStep, records: RunRecords<StepResult>) throws(StepError)
        -> HTTPRequest
    {
        let texts = [http.url] + http.query.map(\.value) + http.headers.map(\.value) + bodyTexts(http.body)
        let scope = values.scope(for: texts + defaults.http.headers.map(\.value), records: records)
        let url = try Self.absoluteURL(
            try http.url.string(in: scope), baseURL: baseURL, masker: masker, at: http.url.location)
        var headers = HTTPHeaders()
        for header in defaults.http.headers {
            headers.set(header.name, try header.value.string(in: scope))
        }
        for header in http.headers {
            headers.set(header.name, try header.value.string(in: scope))
        }
        var body = HTTPBody.empty
        switch http.body {
        case nil:
            break
        case .json(let template)?:
            body = .bytes(Array(try template.value(in: scope).jsonText.utf8))
            if !headers.contains("Content-Type") { headers.set("Content-Type", "application/json") }
        case .form(let fields)?:
            let pairs = try fields.map { field throws(StepError) in
                "\(Self.formEncode(field.name))=\(Self.formEncode(try field.value.string(in: scope)))"
            }
            body = .bytes(Array(pairs.joined(separator: "&").utf8))
            if !headers.contains("Content-Type") {
                headers.set("Content-Type", "application/x-www-form-urlencoded")
            }
        case .text(let text)?:
            body = .bytes(Array(try text.string(in: scope).utf8))
        case .file(let path)?:
            let file = try path.string(in: scope)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                let size = (attributes[.size] as? NSNumber)?.int64Value,
                FileManager.default.isReadableFile(atPath: file)
            else {
                throw StepError("cannot read body-file '\(masker(file))'", at: path.location)
            }
            body = .file(path: file, offset: 0, length: size)
        }
        return HTTPRequest(
            method: http.method.rawValue, url: url,
            query: try http.query.map { item throws(StepError) in (item.name, try item.value.string(in: scope)) },
            headers: headers, body: body, timeout: requestTimeout(step, http),
            followRedirects: http.followRedirects ?? defaults.http.followRedirects ?? true)
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
        case .text(let text)?, .file(let text)?: return [text]
        }
    }

    /// Fails with the first `expect.assert` that does not hold for `result`.
    static func check(
        _ expect: Expectation, result: Value, values: RunValues, records: RunRecords<StepResult>
    ) throws(StepError) {
        guard !expect.assertions.isEmpty else { return }
        var assertions: [CompiledCondition] = []
        for text in expect.assertions { assertions.append(try CompiledCondition(text)) }
        let scope = values.scope(for: [], expressions: assertions.map(\.expression), records: records, result: result)
        for assertion in assertions where !(try assertion.holds(in: scope)) {
            throw StepError("assertion failed: \(assertion.text.text)", at: assertion.text.location)
        }
    }

    /// `url`, or, when it is relative, `url` joined to `defaults.http.base-url`.
    static func absoluteURL(
        _ url: String, baseURL: String?, masker: SecretMasker, at location: SourceLocation
    ) throws(StepError) -> String {
        if url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") { return url }
        guard let baseURL, !baseURL.isEmpty else {
            throw StepError("the URL '\(masker(url))' is relative and there is no defaults.http.base-url", at: location)
        }
        return join(baseURL, url)
    }

    private func describe(_ error: any Error, http: HTTPStep) -> any Error {
        switch error {
        case let unexpected as UnexpectedStatus:
            return StepError(unexpected.description, at: http.expect.location ?? http.location)
        case let transport as HTTPError:
            var message = masker(transport.description)
            if transport.kind == .timeout, http.timeout ?? defaults.http.timeout == nil,
                transport.message.contains("(limit \(DurationFormat.text(defaultRequestTimeout)))")
            {
                message += "; that is flow's default limit for a request, set 'timeout' to change it"
            }
            return StepError(message, at: http.location)
        default:
            return error
        }
    }

    static func join(_ base: String, _ path: String) -> String {
        let trimmedBase = base.hasSuffix("/") ? String(base.dropLast()) : base
        return path.hasPrefix("/") ? trimmedBase + path : trimmedBase + "/" + path
    }

    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
            .replacingOccurrences(of: "%20", with: "+")
    }
}

/// The attempt counter of one step, written by its retry loop on one queue, read after it ends.
/// `@unchecked Sendable`: every access happens on the step's queue, in order.
private final class Attempts: @unchecked Sendable {
    var count = 0
}

extension ValueTemplate {
    /// The JSON value, with every string evaluated.
    func value(in scope: ExpressionScope) throws(StepError) -> Value {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
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
