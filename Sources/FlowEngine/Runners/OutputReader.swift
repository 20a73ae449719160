/// Reads one output stream of a running command: passes its lines on as they arrive, keeps its
/// first `limit` bytes, and stops at once when the command's future is finished (cancelled).
struct OutputReader: Sendable {
    let limit: Int
    /// Whether the command's future already completed: nothing more is passed on then.
    let isFinished: @Sendable () -> Bool
    let onLine: @Sendable (String, StepProgress.OutputStream, OutputHold) -> Void

    /// Reads `pipe` to its end (or until cancelled) and returns the bytes kept.
    func read(_ pipe: PipeReader, _ stream: StepProgress.OutputStream) async -> [UInt8] {
        var splitter = LineSplitter()
        let window = OutputWindow()
        defer { window.close() }
        var captured = CapturedBytes(limit: limit)
        while let buffer = await pipe.next() {
            guard !Task.isCancelled, !isFinished() else { return captured.bytes }
            let lines = buffer.withUnsafeBytes { bytes in
                captured.keep(bytes)
                return splitter.split(bytes)
            }
            // A pipe's worth of short lines is tens of thousands of events: passed on in batches,
            // each waiting for room, so the window bounds them too.
            var start = 0
            while start < lines.count {
                guard !Task.isCancelled, !isFinished() else { return captured.bytes }
                let batch = lines[start..<min(start + Self.batch, lines.count)]
                pass(batch, stream, window)
                start = batch.endIndex
                await window.room()
            }
        }
        guard !Task.isCancelled, !isFinished() else { return captured.bytes }
        if let last = splitter.finish() { pass([last], stream, window) }
        return captured.bytes
    }

    /// The most lines passed on under one hold.
    static let batch = 256

    private func pass(_ lines: ArraySlice<String>, _ stream: StepProgress.OutputStream, _ window: OutputWindow) {
        // One hold for the batch: its share returns when the last of its lines is printed.
        let hold = window.hold(bytes: lines.reduce(0) { $0 + $1.utf8.count }, lines: lines.count)
        for line in lines { onLine(line, stream, hold) }
    }
}

/// The first bytes of a stream, up to a limit, never ending in part of a character.
struct CapturedBytes {
    let limit: Int
    private(set) var bytes: [UInt8] = []
    private var full = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds what still fits; a character the limit would cut is left out, and so is everything
    /// after it.
    mutating func keep(_ more: UnsafeRawBufferPointer) {
        guard !full else { return }
        let room = limit - bytes.count
        guard more.count > room else {
            bytes.append(contentsOf: more)
            return
        }
        full = true
        var cut = room
        // Back up over UTF-8 continuation bytes (10xxxxxx) to the start of the cut character.
        while cut > 0, room - cut < 3, more[cut] & 0xC0 == 0x80 { cut -= 1 }
        bytes.append(contentsOf: more[..<cut])
    }
}
