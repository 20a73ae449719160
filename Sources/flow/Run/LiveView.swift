import Dispatch
import FlowKit
import Foundation

/// The terminal view of a run: each finished step is printed once, permanently, and below them a
/// block of the steps still running — state, elapsed time, attempt, bytes — redrawn ten times a
/// second. Output lines of commands are printed above the block as they come.
///
/// `@unchecked Sendable`: all mutable state is touched only on `queue`.
final class LiveView: @unchecked Sendable {
    private struct Running {
        let id: String
        let kind: String
        let started: ContinuousClock.Instant
        var attempt = 1
        /// The attempt of a `repeat` and its most, once it is past the first.
        var repetition: (attempt: Int, max: Int)?
        var bytes: (done: Int64, total: Int64?)?
        /// A `for-each` step's items: one line for all of them, never one per item.
        var items: (finished: Int, total: Int, failed: Int, running: Int)?
    }

    private let queue = DispatchQueue(label: "flow.live-view")
    private let log: EventPrinter
    private let workflow: FlowWorkflow
    private var running: [Running] = []
    private var drawnLines = 0
    private var timer: (any DispatchSourceTimer)?
    private let spinner = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
    private var tick = 0

    init(log: EventPrinter, workflow: FlowWorkflow) {
        self.log = log
        self.workflow = workflow
    }

    func start() {
        queue.async {
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.redraw() }
            timer.resume()
            self.timer = timer
        }
    }

    /// Clears the block and stops redrawing; call before printing the summary.
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            clearBlock()
        }
    }

    /// Shows `event`; `hold` (a command's line) is let go once the line is written.
    func handle(_ event: FlowEvent, hold: (AnyObject & Sendable)?) {
        let now = ContinuousClock.now
        queue.async {
            switch event {
            case .stepStarted(let id):
                // Groups are shown through their children; a `for-each` group also by its items.
                if self.workflow.isPlainGroup(id) { return }
                let kind = self.workflow.keyword(ofStep: id) ?? "step"
                self.running.append(Running(id: id, kind: kind, started: now))
            case .attempt(let id, let attempt):
                self.update(id) { $0.attempt = attempt }
            case .repetition(let id, let attempt, let max, _):
                self.update(id) { $0.repetition = attempt > 1 ? (attempt, max) : nil }
            case .progress(let id, _, let done, let total):
                self.update(id) { $0.bytes = (done, total) }
            case .output:
                self.printAbove { self.log.handle(event, hold: hold) }
            case .retryWait, .items, .dropped, .runFinished:
                return
            case .item(let item):
                self.update(item.step) { step in
                    var running = step.items?.running ?? 0
                    if item.state == .running { running += 1 } else { running = max(0, running - 1) }
                    step.items = (item.finished, item.total, item.failed, running)
                }
                // A failed item is printed above the block; the rest only move its counter, and
                // the block is redrawn by the timer, not once per item.
                guard item.state == .failed else { return }
                self.printAbove { self.log.handle(event, hold: nil) }
            case .stepFinished(let result):
                self.running.removeAll { $0.id == result.step }
                self.printAbove { self.log.handle(event, hold: nil) }
            }
            self.redraw()
        }
    }

    private func update(_ id: String, _ change: (inout Running) -> Void) {
        guard let index = running.firstIndex(where: { $0.id == id }) else { return }
        change(&running[index])
    }

    private func printAbove(_ print: () -> Void) {
        clearBlock()
        print()
    }

    private func clearBlock() {
        guard drawnLines > 0 else { return }
        // Up to the first line of the block, then clear to the end of the screen.
        StandardOutput.raw("\u{1B}[\(drawnLines)F\u{1B}[J")
        drawnLines = 0
    }

    private func redraw() {
        clearBlock()
        guard !running.isEmpty else { return }
        tick += 1
        let now = ContinuousClock.now
        let shown = running.prefix(20)
        var lines = shown.map { step -> String in
            let elapsed = (now - step.started).seconds
            var line = "\(spinner[tick % spinner.count]) \(step.id.padding(toLength: 24, withPad: " ", startingAt: 0))"
            line += log.paint(String(format: "running %6.1fs", elapsed), .blue)
            if let repetition = step.repetition {
                line += log.paint("  repeat \(repetition.attempt)/\(repetition.max)", .blue)
            }
            if step.attempt > 1 { line += log.paint("  attempt \(step.attempt)", .yellow) }
            if let items = step.items {
                line += "  \(items.finished)/\(items.total) items, \(items.running) running"
                if items.failed > 0 { line += log.paint(", \(items.failed) failed", .red) }
            }
            if let bytes = step.bytes {
                line += "  " + ByteProgress(done: bytes.done, total: bytes.total, elapsed: elapsed).barText
            }
            return line
        }
        if running.count > shown.count { lines.append("  … and \(running.count - shown.count) more running") }
        StandardOutput.raw(lines.joined(separator: "\n") + "\n")
        drawnLines = lines.count
    }
}
