import FlowHTTP
import FlowTasks
import Foundation

/// tus 1.0.0: `POST` (creation) with `Upload-Length` and `Upload-Metadata`, and at the same time
/// `OPTIONS` to learn the server's extensions; `PATCH` chunks with `Upload-Offset` (and
/// `Upload-Checksum` once the server has said it offers the checksum extension), `HEAD` to learn
/// the offset after an error, and `DELETE` (termination) when the step is cancelled mid-way.
final class TusDriver: UploadProtocolDriver {
    static let version = "1.0.0"

    private struct State {
        /// The server's answer to OPTIONS, once it came (nil before, or when it did not answer 2xx).
        var capabilities: TusCapabilities?
        /// The OPTIONS request, asked once per upload; completes with nil for any answer but a 2xx
        /// and for a failed request.
        var discovery: Future<TusCapabilities?>?
        /// Whether OPTIONS was answered (`capabilities` stays nil for an answer that is not a 2xx).
        var answered = false
        var location: String?
        var complete = false
    }

    private let state = LockedBox(State())
    /// The memory each checksummed chunk is read into and sent from.
    private let chunkBuffer = ChunkBuffer()

    var uploadURL: String? { state.withLock { $0.location } }

    func adopt(_ url: String) {
        state.withLock { $0.location = url }
    }

    /// Creates the upload without waiting for `OPTIONS` first: both go out at the same time, so
    /// discovery costs no round trip of its own before the first chunk. The first chunk waits for
    /// both answers, so that every chunk carries `Upload-Checksum` when the server offers it (were
    /// the chunks to race the answer, the first one's checksum would depend on timing). A refused
    /// creation says why when the answer can tell (another version, no creation extension, too
    /// large a file).
    func prepare(_ session: UploadSession) -> Future<Void> {
        let discovery = discover(session)
        let target = session.target
        let queue = session.queue
        return create(session).flatMapError(on: queue) { error in
            guard error is UploadStatusError else { throw error }
            return discovery.map(on: queue) { capabilities in
                throw capabilities?.refusal(of: target, version: Self.version) ?? error
            }
        }.flatMap(on: queue) { discovery.map(on: queue) { _ in () } }
    }

    /// The `OPTIONS` request's answer, asked once per upload (a second creation reuses it), sent
    /// beside the upload's own requests: not the session's current request, which cancelling a
    /// chunk cancels.
    private func discover(_ session: UploadSession) -> Future<TusCapabilities?> {
        if let discovery = state.withLock({ $0.discovery }) { return discovery }
        var options = HTTPRequest(method: "OPTIONS", url: session.target.url, timeout: session.target.controlTimeout)
        options.headers.set("Tus-Resumable", Self.version)
        let request = session.client.execute(session.target.withStepHeaders(options))
        let answer = Promise<TusCapabilities?>(on: session.queue)
        answer.onCancel { request.cancel() }
        state.withLock { $0.discovery = answer.future }
        request.whenCompleteInline(otherwiseOn: session.queue) { [state] result in
            let capabilities = (try? result.get()).flatMap(TusCapabilities.init)
            state.withLock { state in
                state.capabilities = capabilities
                state.answered = true
            }
            answer.succeed(capabilities)
        }
        return answer.future
    }

    private func create(_ session: UploadSession) -> Future<Void> {
        let target = session.target
        var post = HTTPRequest(method: "POST", url: target.url)
        post.headers.set("Tus-Resumable", Self.version)
        post.headers.set("Upload-Length", String(target.file.size))
        post.headers.set("Upload-Metadata", target.metadataHeader)
        return session.send(post).map(on: session.queue) { [state] response in
            guard response.status == 201 else {
                throw UploadStatusError(
                    request: "POST \(target.url) (creating the tus upload)", expected: "201 Created",
                    response: response,
                    masker: session.masker)
            }
            guard let location = response.headers["Location"], !location.isEmpty else {
                throw UploadProtocolError(
                    description: "POST \(target.url): the tus server created the upload but sent no Location")
            }
            state.withLock { $0.location = UploadSession.resolve(location, against: target.url) }
        }
    }

    func send(_ session: UploadSession, offset: Int64, length: Int64) -> Future<ServerAnswer> {
        let target = session.target
        let (location, algorithm) = state.withLock { ($0.location ?? target.url, $0.capabilities?.checksum) }
        let send: @Sendable (_ checksum: String?, _ body: HTTPBody?) -> Future<ServerAnswer> = { checksum, body in
            var patch = HTTPRequest(
                method: "PATCH", url: location,
                body: body ?? .file(path: target.file.path, offset: offset, length: length))
            patch.headers.set("Tus-Resumable", Self.version)
            patch.headers.set("Upload-Offset", String(offset))
            patch.headers.set("Content-Type", "application/offset+octet-stream")
            if let checksum { patch.headers.set("Upload-Checksum", checksum) }
            return session.answer(session.send(patch, chunkStart: offset)) { response in
                // What was sent, in words, made only for a message (not for every chunk).
                let what = { "PATCH \(location) (bytes \(offset)-\(offset + length - 1) of \(target.file.size))" }
                guard response.status == 204 || response.status == 200 else {
                    throw UploadStatusError(
                        request: what(), expected: "204 No Content", response: response, masker: session.masker)
                }
                return try self.answer(response, what: what(), session: session)
            }
        }
        // Read (and its checksum computed) while the chunk before was in flight: sent at once.
        if let ready = chunkBuffer.take(offset: offset, length: length, algorithm: algorithm) {
            return send(ready.checksum, ready.body)
        }
        guard let algorithm else { return send(nil, nil) }
        // With a checksum, a chunk small enough is read once: the read that hashes it keeps its
        // bytes, which are then sent from memory instead of read from the file again.
        if length <= ChunkBuffer.readHereLimit, InlineCallbacks.areAllowed {
            // On the HTTP client's thread, handling the last chunk's answer inline: it reads
            // request bodies with `pread` anyway, and reading the chunk here spares the hops
            // through `FileReaderThreads` and back.
            do {
                let read = try ChunkChecksum.readHere(
                    path: target.file.path, offset: offset, length: length, algorithm: algorithm,
                    into: chunkBuffer.free(for: target))
                return send(read.header, read.body)
            } catch {
                return .failed(error, on: session.queue)
            }
        }
        let read = ChunkChecksum.read(
            path: target.file.path, offset: offset, length: length, algorithm: algorithm,
            into: length <= ChunkChecksum.keptChunkLimit ? chunkBuffer.free(for: target) : nil, queue: session.queue)
        // Not `flatMap`, whose result would always complete on the queue: this PATCH's answer
        // must be able to arrive inline, so that the next chunk is read on the curl thread.
        let answer = Promise<ServerAnswer>(on: session.queue)
        answer.onCancel { read.cancel() }
        read.whenComplete(on: session.queue) { result in
            switch result {
            case .success(let checksum):
                let sent = send(checksum.header, checksum.body)
                answer.onCancel { sent.cancel() }
                sent.whenCompleteInline(otherwiseOn: session.queue) { answer.complete($0) }
            case .failure(let error):
                answer.fail(error)
            }
        }
        return answer.future
    }

    /// Reads the chunk at `offset` with its checksum while the one before is in flight (see
    /// `ChunkBuffer.readAhead`), with the algorithm `send` will use.
    func readAhead(_ session: UploadSession, offset: Int64, length: Int64) {
        let algorithm = state.withLock { $0.capabilities?.checksum }
        chunkBuffer.readAhead(target: session.target, offset: offset, length: length, algorithm: algorithm)
    }

    func ask(_ session: UploadSession) -> Future<ServerAnswer> {
        let location = state.withLock { $0.location } ?? session.target.url
        var head = HTTPRequest(method: "HEAD", url: location)
        head.headers.set("Tus-Resumable", Self.version)
        let what = "HEAD \(location) (asking for the offset)"
        return session.answer(session.send(head)) { response in
            guard (200...299).contains(response.status) else {
                throw UploadStatusError(
                    request: what, expected: "200 OK", response: response, masker: session.masker, asking: true)
            }
            return try self.answer(response, what: what, session: session)
        }
    }

    func abandon(_ session: UploadSession) -> (Future<Void>, String)? {
        let (location, capabilities, answered, complete, discovery) = state.withLock {
            ($0.location, $0.capabilities, $0.answered, $0.complete, $0.discovery)
        }
        discovery?.cancel()
        guard let location, !complete else { return nil }
        // Before the OPTIONS answer, flow cannot know whether the server offers termination: it
        // asks for the DELETE anyway (a server without it refuses, and the upload stays).
        guard !answered || capabilities?.offers("termination") == true else {
            return (
                .succeeded((), on: session.queue),
                "cancelled; the partial upload stays at \(location) (the server does not offer tus termination)"
            )
        }
        var delete = HTTPRequest(method: "DELETE", url: location, timeout: .seconds(5))
        delete.headers.set("Tus-Resumable", Self.version)
        let done = session.client.execute(session.target.withStepHeaders(delete)).map(on: session.queue) { _ in () }
        return (done, "cancelled; deleting the partial upload at \(location) (tus termination)")
    }

    /// The `Upload-Offset` of a PATCH or HEAD answer: complete when it reaches the file's size.
    private func answer(
        _ response: HTTPResponse, what: @autoclosure () -> String, session: UploadSession
    ) throws -> ServerAnswer {
        guard let text = response.headers["Upload-Offset"], let offset = Int64(text) else {
            throw UploadProtocolError(description: "\(what()): the tus server's answer has no valid Upload-Offset")
        }
        guard offset == session.target.file.size else { return .offset(offset, response) }
        // The whole file is there: an OPTIONS still unanswered is of no use any more.
        state.withLock {
            $0.complete = true; return $0.discovery
        }?.cancel()
        return .complete(response)
    }
}
