import FlowDSL
import FlowEngine
import FlowTasks
import Foundation

/// The plan `flow run --dry-run` prints: waves of steps, each request's method and URL with known
/// values substituted (runtime values as `<steps.x.outputs.y>`, secrets as `***`), each upload's
/// chunk plan from the file's size, each command. Building it reads no file data and sends nothing.
package struct DryRunPlan {
    let workflow: Workflow
    let inputs: [String: InputValue]
    let concurrency: Int
    private(set) var known: DryRunValues
    /// Before each step id: the `uses` steps that lead to it (`deploy-eu/`), in a called file's plan.
    private var prefix: String
    /// In a called file's plan: how the caller's `with` reads, for inputs not known before the run.
    private let inputPlaceholders: [String: String]
    /// In one item of a `for-each` step: `[index]`, so a called file's steps read `deploy[1]/publish`.
    private var itemSuffix = ""
    /// Each request the plan shows, as a value (FlowKit's dry run), shared with the plans of
    /// called files.
    let requests: PlannedRequests

    package init(
        workflow: Workflow, inputs: [String: InputValue], concurrency: Int, prefix: String = "",
        inputPlaceholders: [String: String] = [:], requests: PlannedRequests = PlannedRequests()
    ) {
        self.requests = requests
        self.workflow = workflow
        let inputs = Self.resolvingFileInputs(inputs, of: workflow)
        self.inputs = inputs
        self.concurrency = concurrency
        self.known = DryRunValues(workflow: workflow, inputs: inputs)
        self.prefix = prefix
        self.inputPlaceholders = inputPlaceholders
    }

    package func rendered() -> String {
        let stepCount = workflow.allSteps.count
        let waves = shownWaves
        var lines = [
            "plan for \(workflow.file) (dry run: nothing is sent, started or written)",
            "\(stepCount) step\(stepCount == 1 ? "" : "s") in \(waves.count) wave\(waves.count == 1 ? "" : "s"), at most \(concurrency) at once",
        ]
        if !workflow.services.isEmpty {
            lines.append("")
            lines.append("services (started before the first step, stopped at the end; each on a free port):")
            for service in workflow.services { lines += describe(service) }
        }
        for (number, wave) in waves.enumerated() {
            lines.append("")
            lines.append("wave \(number + 1):")
            for step in wave {
                lines += describe(step)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The most items of a `for-each` step whose requests the plan shows one by one.
    static let shownItems = 20
    /// A called file's steps, wave by wave, for the plan of the `uses` step that runs them.
    private func nestedLines() -> [String] {
        var lines: [String] = []
        for (number, wave) in shownWaves.enumerated() {
            lines.append("  wave \(number + 1) of \(workflow.file):")
            for step in wave {
                lines += describe(step)
            }
        }
        return lines
    }

    /// `uses`: the file and its `with`, then the called file's plan with the `with` values that
    /// are known before the run applied (the others shown as the caller wrote them).
    private func describe(_ uses: UsesStep, id: String, suffix: String) -> [String] {
        let given = uses.with.map { "\($0.name)=\(render($0.value))" }.joined(separator: ", ")
        var lines = ["  \(id): uses \(uses.file)\(given.isEmpty ? "" : " with \(given)")\(suffix)"]
        guard let called = workflow.called[uses.resolvedPath] else { return lines }
        var values: [String: InputValue] = [:]
        for input in called.inputs {
            if let value = input.defaultValue { values[input.name] = value }
        }
        var placeholders: [String: String] = [:]
        for entry in uses.with {
            guard let input = called.input(entry.name) else { continue }
            let text = render(entry.value)
            let knownBefore =
                entry.value.template.map { template in
                    template.expressions.allSatisfy { embedded in
                        embedded.expression.references.allSatisfy {
                            ["inputs", "env"].contains($0.root) || known.locals[$0.root] != nil
                        }
                    }
                } ?? true
            if knownBefore, !text.contains("<inputs."), !text.contains("<env."),
                let value = InputValue.parse(text, as: input.kind)
            {
                values[input.name] = value
            } else {
                values[input.name] = nil
                placeholders[input.name] = text
            }
        }
        let nested = DryRunPlan(
            workflow: called, inputs: values, concurrency: called.concurrency, prefix: id + itemSuffix + "/",
            inputPlaceholders: placeholders, requests: requests)
        lines += nested.nestedLines().map { "    " + $0 }
        return lines
    }

    private func describe(_ step: Step) -> [String] {
        guard let forEach = step.forEach else { return describeRepeating(step) }
        var header = "  \(step.id): for-each \(forEach.name)"
        var policy: [String] = []
        if let concurrency = forEach.concurrency { policy.append("\(min(concurrency, self.concurrency)) at once") }
        switch forEach.mode {
        case .any: policy.append(forEach.atLeast.map { $0 > 1 ? "at least \($0) must succeed" : "any" } ?? "any")
        case .all: if !forEach.failFast { policy.append("no fail-fast") }
        }
        let policyText = policy.isEmpty ? "" : " (\(policy.joined(separator: "; ")))"
        guard let items = knownItems(forEach) else {
            let source = forEach.expression.map(\.text) ?? "items"
            header += " in \(source.trimmingCharacters(in: .whitespaces))\(policyText): items known at run time"
            var plan = self
            // An enclosing group's item stays known; this step's own are not.
            plan.known.locals[forEach.name] = nil
            plan.known.locals[ForEach.indexName] = nil
            let body = plan.groupBodyLines(step, itemPrefix: "\(prefix)\(step.id)[i]/")
            return [header] + (plan.describeRepeating(step) + body).map { "  " + $0 }
        }
        header += " in \(items.count) item\(items.count == 1 ? "" : "s")\(policyText)"
        var lines = [header]
        for (index, item) in items.prefix(Self.shownItems).enumerated() {
            var plan = self
            plan.known.locals[forEach.name] = item
            plan.known.locals[ForEach.indexName] = .number(Double(index))
            plan.itemSuffix = "[\(index)]"
            var itemLines = plan.describeRepeating(step)
            let qualified = prefix + step.id
            if !itemLines.isEmpty, itemLines[0].hasPrefix("  \(qualified):") {
                itemLines[0] = "  \(qualified)[\(index)]:" + itemLines[0].dropFirst(qualified.count + 3)
            }
            itemLines += plan.groupBodyLines(step, itemPrefix: "\(qualified)[\(index)]/")
            lines += itemLines.map { "  " + $0 }
        }
        if items.count > Self.shownItems { lines.append("      … and \(items.count - Self.shownItems) more items") }
        return lines
    }

    /// The waves with the steps shown on their own: not those that run once per item of a
    /// `for-each` group (shown in the group's items); a wave left empty is left out.
    private var shownWaves: [[Step]] {
        workflow.waves.map { wave in
            wave.compactMap { id -> Step? in
                guard let step = workflow.step(id) else { return nil }
                return step.parent != nil && workflow.forEachGroup(enclosing: step) != nil ? nil : step
            }
        }.filter { !$0.isEmpty }
    }

    /// The children of a `for-each` group for one item (the item's names already known), in the
    /// order they start, named `batch[0]/post`; nothing for other steps.
    private func groupBodyLines(_ group: Step, itemPrefix: String) -> [String] {
        guard case .group = group.kind, let body = workflow.forEachGroupBody(group.id) else { return [] }
        var plan = self
        plan.prefix = itemPrefix
        plan.itemSuffix = ""
        return body.order.compactMap { id -> Step? in
            guard id != group.id, let step = body.step(id), body.forEachGroup(enclosing: step) == nil else {
                return nil
            }
            return step
        }.flatMap { plan.describe($0) }
    }

    /// The items when they are known before the run: a YAML list, or an expression reading only
    /// inputs, env and files (never secrets); nil when they come from the run.
    package func knownItems(_ forEach: ForEach) -> [Value]? {
        let texts = forEach.items.strings
        guard
            !texts.contains(where: { text in
                text.template?.expressions.contains { $0.expression.references.contains { $0.root == "secrets" } }
                    ?? true
            })
        else { return nil }
        guard let value = try? evaluate(forEach.items) else { return nil }
        switch value {
        case .array(let items): return items
        case .object(let members):
            return members.keys.sorted().map { .object(["key": .string($0), "value": members[$0] ?? .null]) }
        default: return nil
        }
    }

    private func evaluate(_ template: ValueTemplate) throws -> Value {
        switch template {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number, let float): return .number(number, float: float)
        case .string(let text):
            guard let parsed = text.template else { return .string(text.text) }
            return try parsed.evaluate(known)
        case .array(let items): return .array(try items.map(evaluate))
        case .object(let members):
            var object: [String: Value] = [:]
            for member in members { object[member.key] = try evaluate(member.value) }
            return .object(object)
        }
    }

    /// A step with `repeat` shows its first attempt's request and the rule.
    private func describeRepeating(_ step: Step) -> [String] {
        guard let rule = step.repeat else { return describeOnce(step) }
        // The first attempt's request: no previous result yet.
        var first = self
        first.known.locals.merge(["previous": .null, "attempt": .number(1)]) { $1 }
        return first.describeOnce(step) + [describe(rule)]
    }

    /// `repeat until <condition>, every 1s, at most 60 attempts; collect users`.
    private func describe(_ rule: Repeat) -> String {
        let condition = rule.conditionExpression?.source.trimmingCharacters(in: .whitespaces) ?? rule.condition.text
        var text =
            "      repeat \(rule.mode.rawValue) \(condition), every \(rule.every == .zero ? "0s" : DurationFormat.text(rule.every, .written))"
        text += ", at most \(rule.maxAttempts) attempt\(rule.maxAttempts == 1 ? "" : "s") (first attempt shown)"
        if !rule.collect.isEmpty { text += "; collect \(rule.collect.map(\.name).joined(separator: ", "))" }
        return text
    }

    private func describeOnce(_ step: Step) -> [String] {
        var lines: [String] = []
        var relations: [String] = []
        if !step.needs.isEmpty { relations.append("needs \(step.needs.joined(separator: ", "))") }
        if let parent = step.parent { relations.append("in \(parent)") }
        let suffix = relations.isEmpty ? "" : "  (\(relations.joined(separator: "; ")))"
        switch step.kind {
        case .http(let http):
            lines += describe(http, id: prefix + step.id, suffix: suffix)
        case .uses(let uses):
            lines += describe(uses, id: prefix + step.id, suffix: suffix)
        case .upload(let upload):
            let method =
                switch upload.uploadProtocol {
                case .tus: "POST+PATCH"
                case .s3: "POST+PUT"
                case .contentRange: (upload.method ?? .put).rawValue
                }
            lines.append(
                "  \(prefix)\(step.id): upload \(upload.uploadProtocol.rawValue) \(method) \(uploadURL(upload.url))\(suffix)"
            )
            lines.append("      \(chunkPlan(upload))")
            lines += transportLines(
                upload.transport, secure: uploadURL(upload.url).lowercased().hasPrefix("https://"))
        case .run(let run):
            switch run.command {
            case .script(let script): lines.append("  \(prefix)\(step.id): run sh -c \(quote(render(script)))\(suffix)")
            case .arguments(let arguments):
                lines.append(
                    "  \(prefix)\(step.id): run \(arguments.map { quote(render($0)) }.joined(separator: " "))\(suffix)")
            }
            if let cwd = run.cwd { lines.append("      in \(resolved(render(cwd)))") }
        case .call(let call):
            lines.append("  \(prefix)\(step.id): call \(call.name) with \(jsonBody(call.with))\(suffix)")
        case .sleep(let duration):
            lines.append("  \(prefix)\(step.id): sleep \(DurationFormat.text(duration, .written))\(suffix)")
        case .group(let group):
            let children = group.children.map(\.id).joined(separator: ", ")
            var mode = "parallel \(group.mode.rawValue)"
            if let atLeast = group.atLeast { mode += " (at least \(atLeast))" }
            if group.mode == .all, !group.failFast { mode += " (no fail-fast)" }
            lines.append("  \(prefix)\(step.id): \(mode) of \(children)\(suffix)")
        }
        lines += refusedPaths(step)
        if let condition = step.condition { lines.append("      if \(condition.text)") }
        return lines
    }

    /// The request as the runner builds it (`RequestPlan`), values it cannot know as placeholders.
    private func describe(_ http: HTTPStep, id: String, suffix: String) -> [String] {
        let plan: RequestPlan
        do {
            plan = try RequestPlan(
                http, defaults: workflow.defaults.http, baseURL: workflow.defaults.http.baseURL.map(render),
                text: { render($0) }, json: { jsonBody($0) }, placeholders: true,
                folder: absoluteFolder)
        } catch {
            return ["  \(id): \(http.method.rawValue) \(render(http.url))\(suffix)", "      error: \(error.message)"]
        }
        requests.add(step: id, plan)
        var lines = ["  \(id): \(plan.line)\(suffix)"]
        lines += plan.headers.map { "      header \($0.name): \($0.value)" }
        switch plan.body {
        case .json(let text): lines.append("      json \(text)")
        case .form(let text): lines.append("      form \(text)")
        case .text(let text): lines.append("      body \(text)")
        case .binary(let bytes): lines.append("      body " + DryRunBinary.describe(bytes))
        case .binaryKnownAtRunTime(let encoding, let text):
            lines.append("      body \(encoding.rawValue) \(text) (decoded at run time)")
        case .file(let path):
            lines.append("      body from file \(path)" + (http.bodyRange.map { Self.describeRange($0, render) } ?? ""))
        case .multipart(let parts): lines += DryRunMultipart.lines(parts)
        case .none: break
        }
        if let delay = http.delay { lines.append("      delay \(DurationFormat.text(delay, .written)) before sending") }
        if http.keepCredentialsOnRedirect {
            lines.append("      keep-credentials-on-redirect: true (credentials go on to other origins)")
        }
        if !(http.compressed ?? workflow.defaults.http.compressed ?? true) {
            lines.append("      compressed: false (no Accept-Encoding offered)")
        }
        lines += transportLines(http.transport, secure: plan.url.lowercased().hasPrefix("https://"))
        return lines + responseBodyLines(http.responseBody, saveTo: http.responseBody.saveTo.map(render))
    }

    private func describe(_ service: Service) -> [String] {
        var lines: [String] = []
        switch service.command {
        case .script(let script): lines.append("  \(service.name): run sh -c \(quote(render(script)))")
        case .arguments(let arguments):
            lines.append("  \(service.name): run \(arguments.map { quote(render($0)) }.joined(separator: " "))")
        }
        lines += service.env.map { "      env \($0.name)=\(render($0.value))" }
        let timeout = DurationFormat.text(service.timeout, .written)
        switch service.ready {
        case .http(let url): lines.append("      ready when GET \(render(url)) answers 2xx (within \(timeout))")
        case .port(let port):
            lines.append("      ready when 127.0.0.1:\(render(port)) accepts connections (within \(timeout))")
        case .ownPort:
            lines.append(
                "      ready when 127.0.0.1:<services.\(service.name).port> accepts connections (within \(timeout))")
        }
        return lines
    }

    // MARK: Values

    /// A value with inputs, defaults and env substituted, secrets masked, runtime values as placeholders.
    /// `render`, for the plan's extensions.
    func renderText(_ text: ScalarText) -> String { render(text) }

    /// ` bytes OFFSET+LENGTH` of a `body-file` range, as the dry run shows it.
    static func describeRange(_ range: HTTPStep.FileRange, _ render: (ScalarText) -> String) -> String {
        ", \(range.length.map(render) ?? "to the end") bytes from offset \(range.offset.map(render) ?? "0")"
    }

    private func render(_ text: ScalarText) -> String {
        guard let template = text.template else { return text.text }
        return template.render(known: known, placeholder: placeholder)
    }

    private func placeholder(_ reference: Reference) -> String? {
        let key: String? =
            reference.path.count == 1
            ? reference.path.first.flatMap { if case .key(let key) = $0 { key } else { nil } } : nil
        switch reference.root {
        case let root where known.locals[root] != nil:
            return Self.read(known.locals[root] ?? .null, reference.path).interpolated
        case "secrets":
            return "***"
        case "inputs":
            return key.flatMap { inputs[$0]?.description ?? inputPlaceholders[$0] }
        case "env":
            guard let key else { return nil }
            if let declared = workflow.env.first(where: { $0.name == key }) {
                // One level only: an env value reading env again is shown as a placeholder.
                return declared.value.template?.render { inner in
                    inner.root == "secrets" ? "***" : inner.root == "inputs" ? placeholder(inner) : nil
                }
            }
            return ProcessInfo.processInfo.environment[key]
        default:
            // `attempt` and `previous` of a repeat's first attempt.
            guard known.locals[reference.root] != nil,
                let value = try? Expression.parse(reference.description).evaluate(known)
            else { return nil }
            return value.interpolated
        }
    }

    /// A local's value at a static path (`item.name`, `item[0]`), as the evaluator reads it.
    private static func read(_ value: Value, _ path: [PathComponent]) -> Value {
        var value = value
        for component in path {
            switch (component, value) {
            case (.key(let key), .object(let members)): value = members[key] ?? .null
            case (.index(let index), .array(let items)):
                value = index >= 0 && index < items.count ? items[index] : .null
            default: return .null
            }
        }
        return value
    }

    /// An upload's URL, joined to the base URL as the runner joins it.
    private func uploadURL(_ text: ScalarText) -> String {
        let written = render(text)
        guard !written.hasPrefix("<") else { return written }
        let base = workflow.defaults.http.baseURL.map(render)
        return (try? RequestPlan.absoluteURL(written, baseURL: base, at: text.location)) ?? written
    }

    /// A `json:` body as the run writes it, by the run's own code (`Value.jsonText`: keys sorted,
    /// strings escaped, a lone `${{ }}` keeping its value's type), on the values known before the
    /// run. A lone `${{ }}` whose value is known only at run time stands bare, `<steps.a.outputs.n>`
    /// (its type is not known either); a secret, always a string, as `"***"`.
    private func jsonBody(_ template: ValueTemplate) -> String {
        var unknown: [String] = []
        var text = placeholderValue(template, &unknown).jsonText
        for (index, placeholder) in unknown.enumerated() {
            text = text.replacingOccurrences(of: Self.unknownMarker(index).jsonText, with: placeholder)
        }
        return text
    }

    /// A string no workflow writes, standing for the `index`th unknown value until the JSON is written.
    private static func unknownMarker(_ index: Int) -> Value { .string("\u{1}\(index)\u{1}") }

    private func placeholderValue(_ template: ValueTemplate, _ unknown: inout [String]) -> Value {
        switch template {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .number(let number, let float): return .number(number, float: float)
        case .array(let items):
            var values: [Value] = []
            for item in items { values.append(placeholderValue(item, &unknown)) }
            return .array(values)
        case .object(let members):
            var object: [String: Value] = [:]
            for member in members { object[member.key] = placeholderValue(member.value, &unknown) }
            return .object(object)
        case .string(let text):
            let rendered = render(text)
            guard let parsed = text.template, parsed.isSingleExpression else { return .string(rendered) }
            let references = parsed.expressions.flatMap(\.expression.references)
            if references.allSatisfy(isKnown), let value = try? parsed.evaluate(known) { return value }
            let shown = rendered.trimmingCharacters(in: .whitespaces)
            // Rendered to a placeholder: a value of any type. Otherwise text (a secret, an env value).
            guard shown.hasPrefix("<"), shown.hasSuffix(">") else { return .string(shown) }
            unknown.append(shown)
            return Self.unknownMarker(unknown.count - 1)
        }
    }

    /// Whether the dry run knows what `reference` reads: a given or defaulted input, an env value, a local.
    private func isKnown(_ reference: Reference) -> Bool {
        let key = reference.path.first.flatMap { if case .key(let key) = $0 { key } else { nil } }
        switch reference.root {
        case let root where known.locals[root] != nil: return true
        case "inputs": return key.map { known.inputs[$0] != nil } ?? false
        case "env": return key.map { known.env[$0] != nil } ?? false
        default: return false
        }
    }

    private func quote(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+<>*".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Uploads

    /// "file /a.bin (1048576 bytes): 11 chunks × 100KiB, last 24KiB", from `stat` only.
    private func chunkPlan(_ upload: UploadStep) -> String {
        if let s3 = upload.s3 { return partPlan(upload, s3) }
        let path = resolved(render(upload.file))
        let chunk = SizeSyntax.format(upload.chunkSize)
        if path.contains("<") {
            return "file \(path): known at run time; chunks of \(chunk)"
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else {
            return "file \(path): not there now; chunks of \(chunk)"
        }
        let count = upload.chunkCount(forFileSize: size)
        let last = size - (count - 1) * upload.chunkSize
        var text = "file \(path) (\(size) bytes): \(count) chunk\(count == 1 ? "" : "s") × \(chunk)"
        if count > 1, last != upload.chunkSize { text += ", last \(SizeSyntax.format(last))" }
        return text
    }
}
