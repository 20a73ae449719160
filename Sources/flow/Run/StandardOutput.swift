import Dispatch
import FlowKit
import Foundation

/// Standard output, written whole lines at a time.
///
/// Lines are gathered and written together at most 50 ms later (or at 64 KiB): one `write` per
/// event cost as much as the rest of a step's scheduling (measured with perf in bench/engine).
/// `flush()` writes what is pending; the run calls it before the summary.
enum StandardOutput {
    private static let buffer = OutputBuffer()

    static func line(_ text: String) {
        buffer.append(text + "\n")
    }

    /// A line already encoded as UTF-8, without its newline; `hold` is released once the line is
    /// written.
    static func line(_ bytes: [UInt8], holding hold: AnyObject? = nil) {
        buffer.append(bytes, newline: true, holding: hold)
    }

    /// A line written by `build` straight into the pending output (no array of its own made,
    /// filled and copied for each of a run's 20,000 event lines); `hold` as above. `build` runs
    /// under the buffer's lock: it only formats.
    static func line(holding hold: AnyObject? = nil, _ build: (inout EventLine) -> Void) {
        buffer.appendLine(holding: hold, build)
    }

    static func raw(_ text: String) {
        buffer.append(text)
    }

    /// Writes everything pending, in order, and returns once it is written.
    static func flush() {
        buffer.flush()
    }
}

/// The pending output: appended under a lock (no thread hop per line), written by a timer on one
/// serial queue, or at once when it grows large. The holds of the pending lines are kept until
/// they are written, so commands cannot print faster than standard output takes it.
/// `@unchecked Sendable`: `pending`, `holds`, `scheduled` and `writeQueued` are touched only while holding `lock`,
/// and writes to the file descriptor happen only on `queue`, in order.
private final class OutputBuffer: @unchecked Sendable {
    private let queue = DispatchQueue(label: "flow.output")
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var holds: [AnyObject] = []
    /// A write is queued for 50 ms after the first pending line.
    private var scheduled = false
    /// A write is queued at once (the pending output is full) and has not yet taken it.
    private var writeQueued = false

    func append(_ text: String) {
        append(Array(text.utf8), newline: false)
    }

    func append(_ bytes: [UInt8], newline: Bool, holding hold: AnyObject? = nil) {
        lock.lock()
        pending.append(contentsOf: bytes)
        // Consecutive lines of a batch share one hold: keep it once.
        if let hold, holds.last !== hold { holds.append(hold) }
        if newline { pending.append(UInt8(ascii: "\n")) }
        let due = writeDue()
        lock.unlock()
        schedule(due)
    }

    /// Like `append(_:newline:holding:)`, the bytes being what `build` appends.
    func appendLine(holding hold: AnyObject?, _ build: (inout EventLine) -> Void) {
        lock.lock()
        var line = EventLine(continuing: pending)
        pending = []
        build(&line)
        pending = line.takeBytes()
        if let hold, holds.last !== hold { holds.append(hold) }
        pending.append(UInt8(ascii: "\n"))
        let due = writeDue()
        lock.unlock()
        schedule(due)
    }

    /// When a write should be queued, if one is not already (call holding `lock`): now when the
    /// pending output is full, else 50 ms from the first pending line.
    private func writeDue() -> WriteDue? {
        if pending.count >= 64 << 10 {
            // Once: until the write takes the pending bytes, later lines add to them. Queuing a
            // write for each of them queued thousands of empty writes in a 10,000-step run,
            // each taking the lock the run's lines need (callgrind, issue 32 round twelve).
            guard !writeQueued else { return nil }
            writeQueued = true
            return .now
        }
        guard !scheduled else { return nil }
        scheduled = true
        return .later
    }

    private enum WriteDue {
        case now
        case later
    }

    private func schedule(_ due: WriteDue?) {
        switch due {
        case .now: queue.async { self.write() }
        case .later: queue.asyncAfter(deadline: .now() + .milliseconds(50)) { self.write() }
        case nil: break
        }
    }

    func flush() {
        queue.sync { write() }
    }

    /// Takes what is pending and writes it; on `queue` only, so chunks keep their order.
    private func write() {
        lock.lock()
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        let written = holds
        holds.removeAll()
        scheduled = false
        writeQueued = false
        lock.unlock()
        // Released once the bytes are out (after the loop below).
        defer { withExtendedLifetime(written) {} }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = Foundation.write(STDOUT_FILENO, base + offset, raw.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
