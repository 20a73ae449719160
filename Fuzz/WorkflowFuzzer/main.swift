// libFuzzer harness for the workflow parser and checker (see scripts/fuzz.sh).
import FlowDSL

/// libFuzzer's entry point: checks the bytes as a workflow file. Whatever the bytes, checking
/// must return diagnostics or a workflow, never crash, and a workflow it returns must be coherent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWorkflow(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = WorkflowLoader.check(bytes: bytes, file: "fuzz.yaml")
    // Rendering puts snippets and carets under every location: it must cope with all of them.
    _ = result.renderedDiagnostics()
    if result.workflow == nil {
        precondition(result.hasErrors, "no workflow, yet no error to say why")
    }
    if let workflow = result.workflow {
        checkSchedule(of: workflow)
        _ = workflow.mermaidGraph
        _ = workflow.dotGraph
    }
    return 0
}

/// The order runs every step once, after the steps it needs; the waves hold the same steps.
private func checkSchedule(of workflow: Workflow) {
    let ids = workflow.allSteps.map(\.id)
    precondition(Set(ids).count == ids.count, "duplicate step ids in a valid workflow")
    precondition(workflow.order.sorted() == ids.sorted(), "the order is not a permutation of the steps")
    precondition(workflow.waves.flatMap { $0 }.sorted() == ids.sorted(), "the waves do not hold every step once")
    var position: [String: Int] = [:]
    for (index, id) in workflow.order.enumerated() { position[id] = index }
    for step in workflow.allSteps {
        for need in step.needs {
            precondition(position[need].map { $0 < position[step.id] ?? 0 } == true, "a need runs after its step")
        }
    }
}
