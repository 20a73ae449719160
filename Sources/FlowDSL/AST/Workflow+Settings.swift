extension Workflow {
    /// A setting whose `${{ }}` value does not fit its field, located at the expression.
    package struct SettingProblem: Sendable {
        /// What is wrong, naming the key and the value.
        package let message: String
        /// Where the expression is.
        package let location: SourceLocation
    }

    /// Every setting whose value does not fit, in file order.
    package struct SettingProblems: Error, Sendable {
        /// The problems, each located.
        package let problems: [SettingProblem]
    }

    /// The workflow with each of `settingExpressions` computed in `context` and put in its
    /// field, or every value that does not fit (a retry count that is not a whole number, a
    /// timeout that is not a duration). The run calls this before it starts.
    package func resolvingSettings(in context: some EvaluationContext) -> Result<Workflow, SettingProblems> {
        guard !settingExpressions.isEmpty else { return .success(self) }
        var values: [SettingExpression.Field: Int] = [:]
        var durations: [SettingExpression.Field: Duration] = [:]
        var problems: [SettingProblem] = []
        for setting in settingExpressions {
            guard let template = setting.text.template else { continue }
            let value: Value
            do {
                value = try template.evaluate(context)
            } catch {
                problems.append(
                    SettingProblem(
                        message: "cannot evaluate \(setting.key)\(setting.field.owner) "
                            + "'\(Echo.text(setting.text.text))': \(error.message)",
                        location: setting.text.location(ofOffset: error.offset)))
                continue
            }
            switch Self.convert(value, to: setting.kind) {
            case .success(.number(let number)): values[setting.field] = number
            case .success(.duration(let duration)): durations[setting.field] = duration
            case .failure(let expected):
                problems.append(
                    SettingProblem(
                        message: "\(setting.key)\(setting.field.owner) is '\(Echo.text(setting.text.text))', which is "
                            + "\(Self.describe(value)): it must be \(expected.text)",
                        location: setting.text.location))
            }
        }
        guard problems.isEmpty else { return .failure(SettingProblems(problems: problems)) }
        let http = self.defaults.http
        var httpDefaults = HTTPDefaults(
            baseURL: http.baseURL, headers: http.headers,
            timeout: durations[.httpTimeout(step: nil)] ?? http.timeout, followRedirects: http.followRedirects)
        httpDefaults.transport = http.transport
        httpDefaults.noProxy = http.noProxy
        httpDefaults.maxBody = http.maxBody
        httpDefaults.compressed = http.compressed
        let defaults = Defaults(
            http: httpDefaults,
            retry: Self.retry(self.defaults.retry, nil, values, durations),
            timeout: durations[.timeout(step: nil)] ?? self.defaults.timeout)
        func rebuild(_ step: Step) -> Step {
            var kind = step.kind
            switch step.kind {
            case .upload(let upload):
                if let size = values[.chunkSize(step: step.id)] {
                    var resized = UploadStep(
                        file: upload.file, url: upload.url, uploadProtocol: upload.uploadProtocol,
                        method: upload.method, chunkSize: size, headers: upload.headers,
                        metadata: upload.metadata, expect: upload.expect, location: upload.location)
                    resized.transport = upload.transport
                    kind = .upload(resized)
                }
            case .http(let request):
                if let timeout = durations[.httpTimeout(step: step.id)] {
                    var timed = request
                    timed.timeout = timeout
                    kind = .http(timed)
                }
            case .group(let group):
                kind = .group(
                    GroupStep(
                        mode: group.mode, atLeast: group.atLeast, failFast: group.failFast,
                        children: group.children.map(rebuild), location: group.location))
            default:
                break
            }
            return Step(
                id: step.id, location: step.location, name: step.name, description: step.description,
                needs: step.needs, needLocations: step.needLocations, parent: step.parent, kind: kind,
                condition: step.condition, timeout: durations[.timeout(step: step.id)] ?? step.timeout,
                retry: Self.retry(step.retry, step.id, values, durations), continueOnError: step.continueOnError,
                allowOutside: step.allowOutside, outputs: step.outputs, forEach: step.forEach, repeat: step.repeat,
                definitionFingerprint: step.definitionFingerprint)
        }
        var resolved = Workflow(
            file: file, version: version, name: name, description: description, inputs: inputs, env: env,
            defaults: defaults, concurrency: values[.concurrency] ?? concurrency, steps: steps.map(rebuild),
            services: services, outputs: outputs)
        resolved.called = called
        resolved.settingsFingerprint = settingsFingerprint
        resolved.optionalSecrets = optionalSecrets
        return .success(resolved)
    }

    private static func retry(
        _ retry: Retry?, _ step: String?, _ values: [SettingExpression.Field: Int],
        _ durations: [SettingExpression.Field: Duration]
    ) -> Retry? {
        guard let retry else { return nil }
        return Retry(
            attempts: values[.retryAttempts(step: step)] ?? retry.attempts,
            delay: durations[.retryDelay(step: step)] ?? retry.delay, backoff: retry.backoff,
            maxDelay: durations[.retryMaxDelay(step: step)] ?? retry.maxDelay, jitter: retry.jitter, on: retry.on,
            location: retry.location)
    }

    private enum Converted {
        case number(Int)
        case duration(Duration)
    }

    /// A value as its field needs it: numbers, or text in the field's own syntax (`'3'`, `'10s'`,
    /// `'5MB'`), since inputs are text unless declared otherwise.
    private static func convert(_ value: Value, to kind: SettingExpression.Kind) -> Result<Converted, Expected> {
        switch kind {
        case .wholeNumber(let minimum):
            let number: Double?
            switch value {
            case .number(let given, _): number = given
            case .string(let text): number = Double(text.trimmingSpaces)
            default: number = nil
            }
            guard let number, number.rounded() == number, number >= Double(minimum), number < 1e15 else {
                return .failure(Expected(text: "a whole number of at least \(minimum)"))
            }
            return .success(.number(Int(number)))
        case .duration:
            let duration: Duration?
            switch value {
            case .number(let seconds, _) where seconds >= 0 && seconds < 1e12:
                duration = .milliseconds(Int64(seconds * 1000))
            case .string(let text): duration = DurationSyntax.parse(text.trimmingSpaces)
            default: duration = nil
            }
            guard let duration else { return .failure(Expected(text: "a duration like 10s or 1m30s")) }
            return .success(.duration(duration))
        case .size:
            let size: Int?
            switch value {
            case .number(let bytes, _) where bytes.rounded() == bytes && bytes >= 1 && bytes < 1e15: size = Int(bytes)
            case .string(let text): size = SizeSyntax.parse(text.trimmingSpaces)
            default: size = nil
            }
            guard let size, size > 0 else { return .failure(Expected(text: "a size like 5MB or 100KiB")) }
            return .success(.number(size))
        }
    }

    private struct Expected: Error {
        let text: String
    }

    private static func describe(_ value: Value) -> String {
        switch value {
        case .string(let text): return "the text '\(Echo.text(text))'"
        case .null: return "null"
        default: return value.typeName + " " + Echo.text(value.interpolated)
        }
    }
}
