import FlowHTTP
import FlowTasks
import Foundation

/// tus 1.0.0: `OPTIONS` to learn the server's extensions, `POST` (creation) with `Upload-Length`
/// and `Upload-Metadata`, `PATCH` chunks with `Upload-Offset` (and `Upload-Checksum` when the
/// server offers the checksum extension), `HEAD` to learn the offset after an error, and `DELETE`
/// (termination) when the step is cancelled mid-way.
final class TusDriver: UploadProtocolDriver {
    static let version = "1.0.0"

    private struct State {
        var extensions: Set<String> = []
        var checksum: ChecksumAlgorithm?
        var location: String?
        var complete = false
    }

    private let state = LockedBox(State())
    /// The memory each checksummed chunk is read into and sent from, made at the first such
    /// chunk and reused for every later one (see `ReusableBytes`): chunks go one at a time, and
    /// the next is read only after the last one's answer.
    private let chunkBuffer = LockedBox<ReusableBytes?>(nil)

    var uploadURL: String? { state.withLock { $0.location } }

    func adopt(_ url: String) {
        state.withLock { $0.location = url }
    }

    func prepare(_ session: UploadSession) -> Future<Void> {
        let target = session.target
        let queue = session.queue
        var options = HTTPRequest(method: "OPTIONS", url: target.url)
        options.headers.set("Tus-Resumable", Self.version)
        return session.send(options).flatMap(on: queue) { [state] response in
            // A server that does not answer OPTIONS still gets the core protocol and creation.
            if (200...299).contains(response.status) {
                try Self.checkVersion(response, target: target)
                let extensions = Self.list(response.headers["Tus-Extension"])
                let algorithms = Self.list(response.headers["Tus-Checksum-Algorithm"])
                if response.headers["Tus-Extension"] != nil, !extensions.contains("creation") {
                    throw UploadProtocolError(
                        description: "the tus server at \(target.url) does not offer the creation extension "
                            + "(Tus-Extension: \(response.headers["Tus-Extension"] ?? "")), so flow cannot start an upload"
                    )
                }
                if let maximum = response.headers["Tus-Max-Size"].flatMap({ Int64($0) }), target.file.size > maximum {
                    throw UploadProtocolError(
                        description: "'\(target.file.path)' has \(target.file.size) bytes, more than the tus server's "
                            + "Tus-Max-Size of \(maximum)")
                }
                state.withLock { state in
                    state.extensions = Set(extensions)
                    if extensions.contains("checksum") { state.checksum = ChecksumAlgorithm.preferred(in: algorithms) }
                }
            }
            return self.create(session)
        }
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
        let (location, algorithm) = state.withLock { ($0.location ?? target.url, $0.checksum) }
        let what = "PATCH \(location) (bytes \(offset)-\(offset + length - 1) of \(target.file.size))"
        let send: @Sendable ((header: String, body: HTTPBody?)?) -> Future<ServerAnswer> = { checksum in
            let body: HTTPBody =
                checksum?.body ?? .file(path: target.file.path, offset: offset, length: length)
            var patch = HTTPRequest(method: "PATCH", url: location, body: body)
            patch.headers.set("Tus-Resumable", Self.version)
            patch.headers.set("Upload-Offset", String(offset))
            patch.headers.set("Content-Type", "application/offset+octet-stream")
            if let checksum { patch.headers.set("Upload-Checksum", checksum.header) }
            return session.answer(session.send(patch, chunkStart: offset)) { response in
                guard response.status == 204 || response.status == 200 else {
                    throw UploadStatusError(
                        request: what, expected: "204 No Content", response: response, masker: session.masker)
                }
                return try self.answer(response, what: what, session: session)
            }
        }
        guard let algorithm else { return send(nil) }
        // With a checksum, a chunk small enough is read once: the read that hashes it keeps its
        // bytes, which are then sent from memory instead of read from the file again.
        if length <= ChunkChecksum.readHereLimit, InlineCallbacks.areAllowed {
            // On the HTTP client's thread, handling the last chunk's answer inline: it reads
            // request bodies with `pread` anyway, and reading the chunk here spares the hops
            // through DispatchIO's threads and back.
            do {
                return send(
                    try ChunkChecksum.readHere(
                        path: target.file.path, offset: offset, length: length, algorithm: algorithm,
                        into: buffer(target)))
            } catch {
                return .failed(error, on: session.queue)
            }
        }
        let read = ChunkChecksum.read(
            path: target.file.path, offset: offset, length: length, algorithm: algorithm,
            into: length <= ChunkChecksum.keptChunkLimit ? buffer(target) : nil, queue: session.queue)
        // Not `flatMap`, whose result would always complete on the queue: this PATCH's answer
        // must be able to arrive inline, so that the next chunk is read on the curl thread.
        let answer = Promise<ServerAnswer>(on: session.queue)
        answer.onCancel { read.cancel() }
        read.whenComplete(on: session.queue) { result in
            switch result {
            case .success(let checksum):
                let sent = send(checksum)
                answer.onCancel { sent.cancel() }
                sent.whenCompleteInline(otherwiseOn: session.queue) { answer.complete($0) }
            case .failure(let error):
                answer.fail(error)
            }
        }
        return answer.future
    }

    /// The chunk buffer, made on first use: a chunk's size, or the file's when smaller.
    private func buffer(_ target: UploadTarget) -> ReusableBytes {
        chunkBuffer.withLock { buffer in
            if let buffer { return buffer }
            let made = ReusableBytes(capacity: Int(min(target.chunkSize, target.file.size)))
            buffer = made
            return made
        }
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
        let (location, supported, complete) = state.withLock {
            ($0.location, $0.extensions.contains("termination"), $0.complete)
        }
        guard let location, !complete else { return nil }
        guard supported else {
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
    private func answer(_ response: HTTPResponse, what: String, session: UploadSession) throws -> ServerAnswer {
        guard let text = response.headers["Upload-Offset"], let offset = Int64(text) else {
            throw UploadProtocolError(description: "\(what): the tus server's answer has no valid Upload-Offset")
        }
        guard offset == session.target.file.size else { return .offset(offset, response) }
        state.withLock { $0.complete = true }
        return .complete(response)
    }

    private static func checkVersion(_ response: HTTPResponse, target: UploadTarget) throws {
        guard let versions = response.headers["Tus-Version"] else { return }
        guard list(versions).contains(version) else {
            throw UploadProtocolError(
                description: "the tus server at \(target.url) speaks tus \(versions); flow speaks \(version)")
        }
    }

    private static func list(_ header: String?) -> [String] {
        (header ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }
}
