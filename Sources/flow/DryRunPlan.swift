import FlowDSL
import FlowEngine
import Foundation

/// The plan `flow run --dry-run` prints: waves of steps, each request's method and URL with known
/// values substituted (runtime values as `<steps.x.outputs.y>`, secrets as `***`), each upload's
/// chunk plan from the file's size, each command. Building it reads no file data and sends nothing.
struct DryRunPlan {
    let workflow: Workflow
    let inputs: [String: InputValue]
    let concurrency: Int
    private let known: DryRunValues

    init(workflow: Workflow, inputs: [String: InputValue], concurrency: Int) {
        self.workflow = workflow
        self.inputs = inputs
        self.concurrency = concurrency
        self.known = DryRunValues(workflow: workflow, inputs: inputs)
    }

    func rendered() -> String {
        let stepCount = workflow.allSteps.count
        var lines = [
            "plan for \(workflow.file) (dry run: nothing is sent, started or written)",
            "\(stepCount) step\(stepCount == 1 ? "" : "s") in \(workflow.waves.count) wave\(workflow.waves.count == 1 ? "" : "s"), at most \(concurrency) at once",
        ]
        if !workflow.services.isEmpty {
            lines.append("")
            lines.append("services (started before the first step, stopped at the end; each on a free port):")
            for service in workflow.services { lines += describe(service) }
        }
        for (number, wave) in workflow.waves.enumerated() {
            lines.append("")
            lines.append("wave \(number + 1):")
            for id in wave {
                guard let step = workflow.step(id) else { continue }
                lines += describe(step)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ step: Step) -> [String] {
        var lines: [String] = []
        var relations: [String] = []
        if !step.needs.isEmpty { relations.append("needs \(step.needs.joined(separator: ", "))") }
        if let parent = step.parent { relations.append("in \(parent)") }
        let suffix = relations.isEmpty ? "" : "  (\(relations.joined(separator: "; ")))"
        switch step.kind {
        case .http(let http):
            lines += describe(http, id: step.id, suffix: suffix)
        case .upload(let upload):
            let method = upload.uploadProtocol == .tus ? "POST+PATCH" : (upload.method ?? .put).rawValue
            lines.append(
                "  \(step.id): upload \(upload.uploadProtocol.rawValue) \(method) \(uploadURL(upload.url))\(suffix)"
            )
            lines.append("      \(chunkPlan(upload))")
        case .run(let run):
            switch run.command {
            case .script(let script): lines.append("  \(step.id): run sh -c \(quote(render(script)))\(suffix)")
            case .arguments(let arguments):
                lines.append("  \(step.id): run \(arguments.map { quote(render($0)) }.joined(separator: " "))\(suffix)")
            }
            if let cwd = run.cwd { lines.append("      in \(render(cwd))") }
        case .sleep(let duration):
            lines.append("  \(step.id): sleep \(DurationSyntax.format(duration))\(suffix)")
        case .group(let group):
            let children = group.children.map(\.id).joined(separator: ", ")
            var mode = "parallel \(group.mode.rawValue)"
            if let atLeast = group.atLeast { mode += " (at least \(atLeast))" }
            if group.mode == .all, !group.failFast { mode += " (no fail-fast)" }
            lines.append("  \(step.id): \(mode) of \(children)\(suffix)")
        }
        if let condition = step.condition { lines.append("      if \(condition.text)") }
        return lines
    }

    /// The request as the runner builds it (`RequestPlan`), values it cannot know as placeholders.
    private func describe(_ http: HTTPStep, id: String, suffix: String) -> [String] {
        let plan: RequestPlan
        do {
            plan = try RequestPlan(
                http, defaults: workflow.defaults.http, baseURL: workflow.defaults.http.baseURL.map(render),
                text: { render($0) }, json: { renderJSON($0) }, placeholders: true,
                folder: MultipartPlan.folder(ofWorkflow: workflow.file))
        } catch {
            return ["  \(id): \(http.method.rawValue) \(render(http.url))\(suffix)", "      error: \(error.message)"]
        }
        var lines = ["  \(id): \(plan.method) \(plan.url)\(suffix)"]
        lines += plan.headers.map { "      header \($0.name): \($0.value)" }
        switch plan.body {
        case .json(let text): lines.append("      json \(text)")
        case .form(let text): lines.append("      form \(text)")
        case .text(let text): lines.append("      body \(text)")
        case .file(let path): lines.append("      body from file \(path)")
        case .multipart(let parts): lines += DryRunMultipart.lines(parts)
        case .none: break
        }
        return lines
    }

    private func describe(_ service: Service) -> [String] {
        var lines: [String] = []
        switch service.command {
        case .script(let script): lines.append("  \(service.name): run sh -c \(quote(render(script)))")
        case .arguments(let arguments):
            lines.append("  \(service.name): run \(arguments.map { quote(render($0)) }.joined(separator: " "))")
        }
        lines += service.env.map { "      env \($0.name)=\(render($0.value))" }
        let timeout = DurationSyntax.format(service.timeout)
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
    private func render(_ text: ScalarText) -> String {
        guard let template = text.template else { return text.text }
        return template.render(known: known, placeholder: placeholder)
    }

    private func placeholder(_ reference: Reference) -> String? {
        let key: String? =
            reference.path.count == 1
            ? reference.path.first.flatMap { if case .key(let key) = $0 { key } else { nil } } : nil
        switch reference.root {
        case "secrets":
            return "***"
        case "inputs":
            return key.flatMap { inputs[$0]?.description }
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
            return nil
        }
    }

    /// An upload's URL, joined to the base URL as the runner joins it.
    private func uploadURL(_ text: ScalarText) -> String {
        let written = render(text)
        guard !written.hasPrefix("<") else { return written }
        let base = workflow.defaults.http.baseURL.map(render)
        return (try? RequestPlan.absoluteURL(written, baseURL: base, at: text.location)) ?? written
    }

    private func renderJSON(_ value: ValueTemplate) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return InputValue.number(number).description
        case .string(let text): return jsonString(render(text))
        case .array(let items): return "[" + items.map(renderJSON).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { jsonString($0.key) + ":" + renderJSON($0.value) }.joined(separator: ",") + "}"
        }
    }

    private func jsonString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private func quote(_ argument: String) -> String {
        let plain = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,@%+<>*".contains($0) }
        return plain && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Uploads

    /// "file /a.bin (1048576 bytes): 11 chunks × 100KiB, last 24KiB", from `stat` only.
    private func chunkPlan(_ upload: UploadStep) -> String {
        let path = render(upload.file)
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
