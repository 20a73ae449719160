#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a 2xx response's body to the file of an `HTTPSaveTarget` as curl hands it over.
///
/// Confined to the transfer's loop thread, like `Transfer`. Decides once per response, at its
/// first body byte (or at the end for an empty body), where the bytes go: appended after
/// `resumeFrom` for a `206` that continues the file, from the start for any other 2xx, and to
/// memory (not to the file) for every other status.
final class ResponseFileSink {
    private enum Mode {
        case undecided
        case file(descriptor: Int32, start: Int64)
        case memory
    }

    let target: HTTPSaveTarget
    private var mode = Mode.undecided
    private var written: Int64 = 0
    /// Why writing failed (the file could not be opened or written), reported as the transfer's error.
    private(set) var failure: String?
    /// Whether `failure` is the body outgrowing `HTTPSaveTarget.maxSize`.
    private(set) var overLimit = false

    init(_ target: HTTPSaveTarget) {
        self.target = target
    }

    deinit {
        if case .file(let descriptor, _) = mode { close(descriptor) }
    }

    /// A new status line: a redirect or interim response came first; decide again.
    func reset() {
        if case .file = mode { return }  // curl delivers no body before the final response's
        mode = .undecided
    }

    /// Whether the body of the response with `status` and `headers` goes to the file; opens it
    /// the first time. False means memory; `failure` is set when opening failed.
    func wantsBody(status: Int, headers: HTTPHeaders) -> Bool {
        switch mode {
        case .file: return true
        case .memory: return false
        case .undecided: break
        }
        guard (200..<300).contains(status) else {
            mode = .memory
            return false
        }
        let start: Int64
        if status == 206, target.resumeFrom > 0, Self.rangeStart(headers["Content-Range"]) == target.resumeFrom {
            start = target.resumeFrom
        } else if status == 206, let first = Self.rangeStart(headers["Content-Range"]), first != 0 {
            failure =
                "the server answered with bytes from \(first) (Content-Range: \(headers["Content-Range"] ?? "")) "
                + "where \(target.resumeFrom) was asked"
            mode = .memory
            return false
        } else {
            start = 0
        }
        // Not curl's CURLOPT_MAXFILESIZE_LARGE: it would also cut a non-2xx body kept in memory,
        // counts only this response (not a resumed file's first part) and, before curl 8.4, acts
        // only on a size announced in advance; `append` catches a body without one.
        if let maxSize = target.maxSize, let length = headers["Content-Length"].flatMap({ Int64($0) }),
            start + length > maxSize
        {
            failure = Self.overLimitMessage(maxSize, announced: start + length)
            overLimit = true
            mode = .memory
            return false
        }
        let descriptor = open(target.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            failure = "cannot write '\(target.path)': \(String(cString: strerror(errno)))"
            mode = .memory
            return false
        }
        // Whatever lies past `start` is stale: a drop may have left more than the server confirmed.
        guard ftruncate(descriptor, off_t(start)) == 0, lseek(descriptor, off_t(start), SEEK_SET) == off_t(start) else {
            failure = "cannot write '\(target.path)': \(String(cString: strerror(errno)))"
            close(descriptor)
            mode = .memory
            return false
        }
        mode = .file(descriptor: descriptor, start: start)
        target.onStart?(status, headers)
        return true
    }

    /// Writes `bytes` at the end of what this response wrote; false on a write error (`failure` says which).
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard case .file(let descriptor, let start) = mode else { return false }
        if let maxSize = target.maxSize, start + written + Int64(bytes.count) > maxSize {
            failure = Self.overLimitMessage(maxSize, announced: nil)
            overLimit = true
            return false
        }
        var done = 0
        while done < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                failure = "writing '\(target.path)' failed: \(String(cString: strerror(errno)))"
                return false
            }
            done += result
        }
        target.observer?(start + written, bytes)
        written += Int64(bytes.count)
        return true
    }

    /// At the end of a successful transfer: closes the file (creating it for an empty 2xx body)
    /// and says what was written, or `nil` when the body stayed in memory.
    func finish(status: Int, headers: HTTPHeaders, isHead: Bool) -> HTTPSavedBody? {
        if case .undecided = mode, !isHead, failure == nil { _ = wantsBody(status: status, headers: headers) }
        guard case .file(let descriptor, let start) = mode else { return nil }
        close(descriptor)
        mode = .memory
        return HTTPSavedBody(path: target.path, offset: start, count: written)
    }

    /// Why a body over `HTTPSaveTarget.maxSize` was refused; `announced` is the file's size its
    /// `Content-Length` foretold, when that is how it was caught.
    static func overLimitMessage(_ maxSize: Int64, announced: Int64?) -> String {
        let reason = announced.map { "its Content-Length makes the file \($0) bytes" } ?? "it grew past the limit"
        return "the response body would make the saved file larger than \(maxSize) bytes (\(reason))"
    }

    /// The first byte position of a `Content-Range: bytes FIRST-LAST/TOTAL` value.
    static func rangeStart(_ value: String?) -> Int64? {
        guard let value, let rest = value.split(separator: " ", maxSplits: 1).last,
            let dash = rest.firstIndex(of: "-")
        else { return nil }
        return Int64(rest[..<dash].trimmingCharacters())
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        return text
    }
}
