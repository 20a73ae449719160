import FlowDSL
import FlowTasks
import Foundation

extension WorkflowRun {
    /// A `uses` step: evaluates `with` in the step's scope, runs the called workflow as a nested
    /// run, and succeeds with its top-level outputs (`result.outputs`, and the step's outputs
    /// with the step's own `outputs` on top) or fails naming the inner step that failed.
    static func usesLeaf(
        _ step: Step, _ uses: UsesStep, workflow: Workflow, values: RunValues, context: NestedRunContext
    ) -> StepWork<StepResult> {
        guard let called = workflow.called[uses.resolvedPath] else {
            // A checked workflow always has its called files; this only guards a hand-made one.
            let error = StepError("\(uses.file) was not loaded", at: uses.location)
            return .leaf { start in Future.failed(error, on: start.queue) }
        }
        return .leaf { start in
            start.report(.attempt(1))
            let inputs: [String: InputValue]
            do {
                inputs = try inputValues(
                    uses, of: called,
                    in: values.scope(
                        for: uses.with.map(\.value), records: start.records, locals: start.locals),
                    workingDirectory: context.options.workingDirectory)
            } catch {
                return Future.failed(error, on: start.queue)
            }
            // Each item of a repeated `uses` step runs its own copy: `deploy[1]/publish`.
            let prefix: String
            if step.forEach != nil, case .number(let index, _)? = start.locals[ForEach.indexName] {
                prefix = "\(start.id)[\(Int(index))]/"
            } else {
                prefix = start.id + "/"
            }
            let offset = start.records[start.id]?.startedAt ?? .zero
            return NestedRun.start(
                called, inputs: inputs, prefix: prefix, offset: offset, context: context, at: uses.location
            ).map(on: start.queue) { finished in
                guard finished.outcome == .succeeded else {
                    throw NestedRun.failure(of: finished, prefix: prefix, at: uses.location)
                }
                let result = Value.object(["outputs": .object(finished.outputs)])
                let own = try outputValues(
                    step, values: values, records: start.records, locals: start.locals, result: result)
                return StepResult(
                    result: result, outputs: finished.outputs.merging(own) { _, own in own }, attempts: 1)
            }
        }
    }

    /// `with` evaluated and converted to the called file's input types, as `--input` would be.
    private static func inputValues(
        _ uses: UsesStep, of called: Workflow, in scope: ExpressionScope, workingDirectory: String
    ) throws(StepError) -> [String: InputValue] {
        var inputs: [String: InputValue] = [:]
        for input in called.inputs {
            if let value = input.defaultValue { inputs[input.name] = value }
        }
        for entry in uses.with {
            guard let input = called.input(entry.name) else { continue }
            let value = try entry.value.evaluate(in: scope)
            let converted: InputValue?
            switch (input.kind, value) {
            case (_, .null): converted = nil
            case (.number, .number(let number, _)): converted = .number(number)
            case (.boolean, .bool(let flag)): converted = .boolean(flag)
            case (.string, _), (.file, _), (_, .string):
                converted = InputValue.parse(value.interpolated, as: input.kind)
                if converted == nil {
                    throw StepError(
                        "input '\(input.name)' of \(uses.file) must be a \(input.kind.rawValue), not '\(value.interpolated)'",
                        at: entry.value.location)
                }
            default:
                throw StepError(
                    "input '\(input.name)' of \(uses.file) must be a \(input.kind.rawValue), not \(value.jsonText)",
                    at: entry.value.location)
            }
            guard var converted else {
                if input.required {
                    throw StepError(
                        "input '\(input.name)' of \(uses.file) is required, but 'with' gave null",
                        at: entry.value.location)
                }
                continue
            }
            if input.kind == .file, case .string(let path) = converted {
                let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory))
                converted = .string(url.standardizedFileURL.path)
            }
            inputs[input.name] = converted
        }
        return inputs
    }
}
