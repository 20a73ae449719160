import FlowDSL
import Foundation

/// What a dry run knows before anything runs: the inputs (given or defaulted) and the env
/// (the workflow's literal values, then the process environment). Steps, results and secrets are
/// unknown here, so expressions reading them stay placeholders.
package struct DryRunValues: EvaluationContext {
    let inputs: [String: Value]
    let env: [String: Value]
    /// Names of one step's request while it is shown: a `for-each` item's (`item`, `index`) and a
    /// `repeat`'s first attempt (`previous`, `attempt`).
    var locals: [String: Value] = [:]
    /// The workflow file's folder, where `files('glob')` matches.
    package var filesFolder: String?

    package init(workflow: Workflow, inputs: [String: InputValue]) {
        self.inputs = inputs.mapValues { value in
            switch value {
            case .string(let text): return .string(text)
            case .number(let number): return .number(number)
            case .boolean(let flag): return .bool(flag)
            }
        }
        var env = ProcessInfo.processInfo.environment.mapValues { Value.string($0) }
        for variable in workflow.env {
            // Only literal values: an env value built from expressions is shown through them.
            if let template = variable.value.template, template.isLiteral {
                env[variable.name] = .string(variable.value.text)
            } else {
                env[variable.name] = nil
            }
        }
        self.env = env
        filesFolder = workflow.folder
    }

    package func value(ofRoot name: String) -> Value? {
        if let local = locals[name] { return local }
        switch name {
        case "inputs": return .object(inputs)
        case "env": return .object(env)
        default: return nil
        }
    }

    package func statusFunction(_ function: StatusFunction) -> Bool? { nil }
}
