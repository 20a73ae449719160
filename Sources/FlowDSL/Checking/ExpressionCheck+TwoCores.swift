/// The expression check of a large workflow shared between two threads (issue 32): the steps'
/// sites, nearly all of the work, are checked in chunks that each thread takes in turn, the
/// caller's thread once it has done its other checks, so that neither waits while chunks are
/// left. The diagnostics are put together in the order `ExpressionCheck.run` gives them.
extension ExpressionCheck {
    /// Steps a chunk.
    static var chunkSize: Int { 256 }

    /// `run()`'s diagnostics, with the steps' sites checked on a second core as well as here,
    /// after `besides`, whose result is returned too; nil when no thread could be made.
    static func diagnosticsOnTwoCores<Other>(
        of workflow: Workflow, besides: () -> Other
    ) -> (besides: Other, expressions: [Diagnostic])? {
        let chunks = ChunkQueue(count: workflow.allSteps.count, size: chunkSize)
        let inherited = ExpressionSite.inheritedNames(in: workflow)
        guard
            let secondCore = SecondCore.start({
                var check = ExpressionCheck(workflow: workflow)
                let found = check.checkChunks(chunks, inherited: inherited)
                return (check, found)
            })
        else { return nil }
        var check = ExpressionCheck(workflow: workflow)
        check.checkWorkflowLevel()
        let workflowLevel = check.takeDiagnostics()
        let other = besides()
        var found = check.checkChunks(chunks, inherited: inherited)
        let (secondCheck, secondFound) = secondCore.join()
        found.merge(secondFound) { first, _ in first }
        check.checkOutputs()
        check.reportUnreadOutputs(readBy: [secondCheck])
        var diagnostics = workflowLevel
        for number in 0..<chunks.total { diagnostics += found[number] ?? [] }
        diagnostics += check.takeDiagnostics()
        return (other, diagnostics)
    }

    /// Checks chunks of steps until none is left; the diagnostics of each, by its number.
    private mutating func checkChunks(_ chunks: ChunkQueue, inherited: [String: [String]]) -> [Int: [Diagnostic]] {
        var found: [Int: [Diagnostic]] = [:]
        while let (number, positions) = chunks.next() {
            checkSteps(at: positions, inherited: inherited)
            let diagnostics = takeDiagnostics()
            if !diagnostics.isEmpty { found[number] = diagnostics }
        }
        return found
    }
}
