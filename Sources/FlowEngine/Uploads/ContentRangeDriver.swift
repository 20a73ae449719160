import FlowHTTP
import FlowTasks
import Foundation

/// Content-Range uploads: each chunk is a `PUT` (or the step's `method`) of
/// `Content-Range: bytes a-b/total`, answered 308 (or 2xx) until the last; asking is the same
/// request with `Content-Range: bytes */total` and no body, answered with the `Range` held.
struct ContentRangeDriver: UploadProtocolDriver {
    /// The memory chunks are read into on the HTTP client's thread, and read ahead.
    private let chunkBuffer = ChunkBuffer()

    var uploadURL: String? { nil }

    func prepare(_ session: UploadSession) -> Future<Void> {
        .succeeded((), on: session.queue)
    }

    func send(_ session: UploadSession, offset: Int64, length: Int64) -> Future<ServerAnswer> {
        let target = session.target
        let total = target.file.size
        let range = "bytes \(offset)-\(offset + length - 1)/\(total)"
        var request = HTTPRequest(method: target.method, url: target.url, body: body(target, offset, length))
        request.headers.set("Content-Range", range)
        return session.answer(session.send(request, chunkStart: offset)) { response in
            // What was sent, in words, made only for a message (not for every chunk).
            try answer(
                response, what: "\(target.method) \(target.url) (\(range))", session: session,
                afterChunkEnding: offset + length)
        }
    }

    /// The chunk's body: read ahead while the chunk before was in flight; else, on the HTTP
    /// client's thread (handling the last answer inline), read here into memory, so that the
    /// upload hashes it after it went out, while the server reads it; else from the file as curl
    /// sends it.
    private func body(_ target: UploadTarget, _ offset: Int64, _ length: Int64) -> HTTPBody {
        if let ready = chunkBuffer.take(offset: offset, length: length, algorithm: nil) { return ready.body }
        if length <= ChunkBuffer.readHereLimit, InlineCallbacks.areAllowed,
            let body = try? ChunkBuffer.readHere(
                path: target.file.path, offset: offset, length: length, into: chunkBuffer.free(for: target))
        {
            return body
        }
        // A chunk that cannot be read here fails as curl reads it, with the same message as ever.
        return .file(path: target.file.path, offset: offset, length: length)
    }

    /// Reads the chunk at `offset` while the one before is in flight (see `ChunkBuffer.readAhead`).
    func readAhead(_ session: UploadSession, offset: Int64, length: Int64) {
        chunkBuffer.readAhead(target: session.target, offset: offset, length: length, algorithm: nil)
    }

    func ask(_ session: UploadSession) -> Future<ServerAnswer> {
        let target = session.target
        var request = HTTPRequest(method: target.method, url: target.url)
        request.headers.set("Content-Range", "bytes */\(target.file.size)")
        let what = "\(target.method) \(target.url) (Content-Range: bytes */\(target.file.size), asking for the offset)"
        return session.answer(session.send(request)) { response in
            try answer(response, what: what, session: session, afterChunkEnding: nil)
        }
    }

    func abandon(_ session: UploadSession) -> (Future<Void>, String)? { nil }

    /// 2xx: complete (or, before the last chunk, holding everything up to its end); 308: holding
    /// what `Range: bytes=0-N` says (nothing without one); anything else is an error.
    private func answer(
        _ response: HTTPResponse, what: @autoclosure () -> String, session: UploadSession,
        afterChunkEnding end: Int64?
    ) throws -> ServerAnswer {
        let total = session.target.file.size
        switch response.status {
        case 200...299:
            // A `Range` on a 2xx is read too (when it has the one valid shape): a server may say
            // "done" while holding less.
            let held = response.headers["Range"].flatMap(Self.heldBytes)
            if let end, end < total { return .offset(min(end, held ?? end), response) }
            if let held, held < total {
                throw UploadIntegrityError(
                    description: "\(what()): the server answered \(response.status), saying the upload is complete, "
                        + "but its Range says it holds only \(held) of \(total) bytes")
            }
            return .complete(response)
        case 308:
            guard let range = response.headers["Range"] else { return .offset(0, response) }
            guard let held = Self.heldBytes(range) else {
                throw UploadProtocolError(
                    description: "\(what()): the server answered 308 with Range '\(range)', not 'bytes=0-N'")
            }
            return .offset(held, response)
        default:
            throw UploadStatusError(
                request: what(), expected: "308 or 2xx", response: response, masker: session.masker,
                asking: end == nil)
        }
    }

    /// `bytes=0-N` → N + 1.
    ///
    /// Read from the header's bytes: this runs for every chunk's answer, and Foundation's
    /// `trimmingCharacters` went through `NSString` and a protocol-conformance lookup each time
    /// (a third of flow's own CPU a chunk). Text with other than ASCII takes that path still, so
    /// what is accepted is the same.
    static func heldBytes(_ range: String) -> Int64? {
        var range = range
        let fast = range.withUTF8 { bytes -> Int64?? in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return .none }
            return .some(heldBytes(ascii: bytes))
        }
        if let fast { return fast }
        let text = range.trimmingCharacters(in: .whitespaces).lowercased()
        guard text.hasPrefix("bytes=0-"), let last = Int64(text.dropFirst("bytes=0-".count)), last >= 0,
            last < Int64.max
        else { return nil }
        return last + 1
    }

    /// `heldBytes` of ASCII text: spaces and tabs around it ignored, `bytes` in any case.
    private static func heldBytes(ascii bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end - start > heldPrefix.count else { return nil }
        for (index, expected) in heldPrefix.enumerated() {
            // ASCII letters lower-cased by setting bit 5; the prefix's other bytes have it set already.
            let byte = bytes[start + index]
            guard byte == expected || (byte | 0x20 == expected && expected >= 0x61 && expected <= 0x7A) else {
                return nil
            }
        }
        // `Int64` of the rest, as the text path reads it (a sign allowed, overflow refused).
        let digits = UnsafeBufferPointer(rebasing: bytes[(start + heldPrefix.count)..<end])
        guard let last = Int64(String(decoding: digits, as: UTF8.self)), last >= 0, last < Int64.max else {
            return nil
        }
        return last + 1
    }

    private static let heldPrefix = Array("bytes=0-".utf8)
}
