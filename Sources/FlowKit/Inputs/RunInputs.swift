import FlowDSL
import Foundation

/// Checks and resolves `--input name=value` against a workflow's declared inputs.
package enum RunInputs {
    /// Every problem with the inputs: malformed or unknown names, wrong types, missing required
    /// inputs, and `file` inputs that do not exist or cannot be read.
    package static func problems(in workflow: Workflow, arguments: [String]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var given = Set<String>()
        let names = workflow.inputs.map(\.name)
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                problems.append(
                    .error(
                        "--input '\(argument)' is not name=value",
                        at: nil,
                        hint: "write --input name=value"
                    ))
                continue
            }
            let name = String(argument[..<equals])
            let text = String(argument[argument.index(after: equals)...])
            guard let input = workflow.input(name) else {
                let hint =
                    Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'?" }
                    ?? (names.isEmpty
                        ? "the workflow declares no inputs"
                        : "declared inputs: \(names.joined(separator: ", "))")
                problems.append(.error("unknown input '\(name)'", at: nil, hint: hint))
                continue
            }
            given.insert(name)
            if let problem = problem(with: text, for: input) { problems.append(problem) }
        }
        for input in workflow.inputs where input.required && !given.contains(input.name) {
            problems.append(
                .error(
                    "input '\(input.name)' is required",
                    at: input.location,
                    length: input.name.count,
                    hint: "pass --input \(input.name)=\(placeholder(for: input.kind))"
                ))
        }
        for input in workflow.inputs where input.kind == .file && !given.contains(input.name) {
            if case .string(let path) = input.defaultValue, let problem = fileProblem(path, input: input) {
                problems.append(problem)
            }
        }
        return problems
    }

    private static func problem(with text: String, for input: Input) -> Diagnostic? {
        guard InputValue.parse(text, as: input.kind) != nil else {
            return .error(
                "input '\(input.name)' must be a \(input.kind.rawValue), not '\(text)'",
                at: input.location,
                length: input.name.count,
                hint: "pass --input \(input.name)=\(placeholder(for: input.kind))"
            )
        }
        return input.kind == .file ? fileProblem(text, input: input) : nil
    }

    private static func fileProblem(_ path: String, input: Input) -> Diagnostic? {
        var isDirectory: ObjCBool = false
        let reason: String
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            reason = "does not exist"
        } else if isDirectory.boolValue {
            reason = "is a directory"
        } else if !FileManager.default.isReadableFile(atPath: path) {
            reason = "is not readable"
        } else {
            return nil
        }
        return .error(
            "input '\(input.name)': file '\(path)' \(reason)",
            at: input.location,
            length: input.name.count,
            hint: "file inputs are paths resolved against the current directory"
        )
    }

    package static func secretsFileProblem(_ path: String) -> Diagnostic? {
        if FileManager.default.isReadableFile(atPath: path) { return nil }
        return .error("the secrets file '\(path)' does not exist or is not readable", at: nil)
    }

    /// Each input's value: given on the command line, else its default; absent ones omitted.
    package static func values(in workflow: Workflow, arguments: [String]) -> [String: InputValue] {
        var values: [String: InputValue] = [:]
        for input in workflow.inputs {
            if let value = input.defaultValue { values[input.name] = value }
        }
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else { continue }
            let name = String(argument[..<equals])
            guard let input = workflow.input(name),
                let value = InputValue.parse(String(argument[argument.index(after: equals)...]), as: input.kind)
            else { continue }
            values[name] = value
        }
        return values
    }

    private static func placeholder(for kind: Input.Kind) -> String {
        switch kind {
        case .string: return "TEXT"
        case .number: return "NUMBER"
        case .boolean: return "true|false"
        case .file: return "PATH"
        }
    }
}
