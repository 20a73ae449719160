import FlowKit

extension RunCommand {
    /// Sets up `--only`, `--outputs-from/-to` and `--service` in the run's settings; exit 2 after a
    /// message when they are wrong.
    func prepareOnly(_ settings: inout RunSettings) throws {
        do throws(OnlyStep.Problem) {
            try settings.prepareOnly(
                services: externalServices, only: only, outputsFrom: outputsFrom, outputsTo: outputsTo, item: item,
                itemsTo: itemsTo)
        } catch {
            StandardError.write("flow run: \(error.message)\n")
            throw FlowExit.invalid.exitCode
        }
    }
}
