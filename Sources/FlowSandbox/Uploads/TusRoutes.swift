import Foundation
internal import HTTPTypes
internal import Hummingbird

/// tus 1.0.0 at `/uploads/tus`: core, creation, checksum (sha1, sha256) and termination.
///
/// Follows https://tus.io/protocols/resumable-upload: `Tus-Resumable` on every response but
/// OPTIONS, 412 for another protocol version, 404 for an unknown upload, 415 for a PATCH that is not
/// `application/offset+octet-stream`, 409 for an offset mismatch, 460 for a checksum mismatch.
enum TusRoutes {
    static let version = "1.0.0"
    static let extensions = "creation,checksum,termination"
    /// The largest upload accepted (`Tus-Max-Size`).
    static let maxSize = 8 << 30

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.on("uploads/tus", method: .options) { request, context in await options(request, context: context) }
        router.on("uploads/tus/:id", method: .options) { request, context in await options(request, context: context) }
        router.post("uploads/tus") { request, context in
            try await create(request, context: context, state: state)
        }
        router.head("uploads/tus/:id") { request, context in
            head(request, context: context, state: state)
        }
        router.patch("uploads/tus/:id") { request, context in
            try await patch(request, context: context, state: state)
        }
        router.delete("uploads/tus/:id") { request, context in
            terminate(request, context: context, state: state)
        }
        // tus core: X-HTTP-Method-Override, for clients behind proxies that pass only GET and POST.
        router.post("uploads/tus/:id") { request, context in
            switch request.headers[.methodOverride]?.uppercased() {
            case "PATCH": try await patch(request, context: context, state: state)
            case "DELETE": terminate(request, context: context, state: state)
            case "HEAD": head(request, context: context, state: state)
            default:
                reply(.methodNotAllowed, error: "POST to an upload needs X-HTTP-Method-Override: PATCH, DELETE or HEAD")
            }
        }
    }

    /// The server's capabilities; with `?hold-options-ms=N` (up to 60000) answered N ms late (or
    /// when the client hangs up), as a slow or distant server would: a client that waits for
    /// OPTIONS before creating the upload shows it.
    private static func options(_ request: Request, context: SandboxContext) async -> Response {
        if let milliseconds = request.uri.queryParameters.get("hold-options-ms", as: Int.self),
            (1...60_000).contains(milliseconds), let connection = context.connection
        {
            _ = await connection.waitForHangUp(upTo: .milliseconds(milliseconds))
        }
        return Response(
            status: .noContent,
            headers: [
                .tusVersion: version,
                .tusExtension: extensions,
                .tusChecksumAlgorithm: ChunkChecksum.algorithms.joined(separator: ","),
                .tusMaxSize: String(maxSize),
            ]
        )
    }

    /// Every tus response but OPTIONS carries `Tus-Resumable`.
    private static func reply(_ status: HTTPResponse.Status, _ headers: HTTPFields = [:], error: String? = nil)
        -> Response
    {
        var headers = headers
        headers[.tusResumable] = version
        guard let error else {
            if headers[.contentLength] == nil { headers[.contentLength] = "0" }
            return Response(status: status, headers: headers)
        }
        return JSONResponse.error(error, status: status, headers: headers)
    }

    /// 412 unless the client speaks tus 1.0.0; nil when it does.
    private static func versionMismatch(_ request: Request) -> Response? {
        let asked = request.headers[.tusResumable]
        guard asked != version else { return nil }
        return reply(
            .preconditionFailed,
            [.tusVersion: version],
            error: asked.map { "Tus-Resumable \($0) is not supported; use \(version)" }
                ?? "send Tus-Resumable: \(version)"
        )
    }

    private static func create(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        if let refusal = versionMismatch(request) { return refusal }
        _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
        guard let text = request.headers[.uploadLength], let length = Int(text), length >= 0 else {
            let deferred = request.headers[.uploadDeferLength] != nil
            return reply(
                .badRequest,
                error: deferred
                    ? "Upload-Defer-Length is not supported; send Upload-Length"
                    : "send Upload-Length with the size in bytes"
            )
        }
        guard length <= maxSize else {
            return reply(.contentTooLarge, error: "Upload-Length \(length) exceeds Tus-Max-Size \(maxSize)")
        }
        let metadata = request.headers[.uploadMetadata]
        if let metadata, !TusMetadata.isValid(metadata) {
            return reply(.badRequest, error: "Upload-Metadata must be comma-separated 'key base64value' pairs")
        }
        let id = UUID().uuidString.lowercased()
        let dropAt = request.uri.queryParameters.get("drop-at", as: Int.self)
        let upload = try state.uploads.findOrCreate(.tus, id, length: length, metadata: metadata, dropAt: dropAt)
        upload.setPace(milliseconds: request.uri.queryParameters.get("pace-ms", as: Int.self))
        upload.armDrops(every: request.uri.queryParameters.get("drop-every", as: Int.self))
        let path = "/uploads/tus/\(id)"
        let location = request.head.authority.map { "http://\($0)\(path)" } ?? path
        return reply(.created, [.location: location])
    }

    private static func head(_ request: Request, context: SandboxContext, state: SandboxState) -> Response {
        if let refusal = versionMismatch(request) { return refusal }
        guard let upload = find(context, state: state) else {
            return reply(.notFound, [.cacheControl: "no-store"])
        }
        let snapshot = upload.snapshot()
        var headers: HTTPFields = [
            .uploadOffset: String(snapshot.offset),
            .uploadLength: String(snapshot.length),
            .cacheControl: "no-store",
        ]
        if let metadata = snapshot.metadata { headers[.uploadMetadata] = metadata }
        return reply(.ok, headers)
    }

    private static func patch(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        if let refusal = versionMismatch(request) { return refusal }
        guard let upload = find(context, state: state) else {
            return reply(.notFound, error: "no such upload")
        }
        guard request.headers[.contentType]?.lowercased() == "application/offset+octet-stream" else {
            return reply(.unsupportedMediaType, error: "send Content-Type: application/offset+octet-stream")
        }
        guard let text = request.headers[.uploadOffset], let offset = Int(text), offset >= 0 else {
            return reply(.badRequest, error: "send Upload-Offset with the offset this chunk starts at")
        }
        var checksum: ChunkChecksum?
        if let header = request.headers[.uploadChecksum] {
            guard let parsed = ChunkChecksum(header: header) else {
                return reply(
                    .badRequest,
                    error: "Upload-Checksum must be '<algorithm> <base64 digest>' with sha1 or sha256"
                )
            }
            checksum = parsed
        }
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, offset + declared > upload.length {
            return reply(.badRequest, error: "the chunk goes past Upload-Length \(upload.length)")
        }
        upload.armDrop(at: request.uri.queryParameters.get("drop-at", as: Int.self))
        upload.armDrops(every: request.uri.queryParameters.get("drop-every", as: Int.self))
        let writer: ChunkWriter
        switch upload.beginChunk(at: offset) {
        case .success(let reserved): writer = reserved
        case .failure(.gone): return reply(.notFound, error: "no such upload")
        case .failure(.offsetMismatch(let current)), .failure(.busy(let current)):
            return reply(
                .conflict,
                [.uploadOffset: String(current)],
                error: "Upload-Offset \(offset) does not match the upload's offset \(current)"
            )
        }
        let outcome = await ChunkReceiver.receive(
            request.body,
            into: upload,
            writer: writer,
            declaredLength: declared,
            checksum: checksum,
            context: context,
            events: state.events
        )
        if outcome == .stored { try await Task.sleep(for: upload.pace) }
        let stored = String(upload.snapshot().offset)
        switch outcome {
        case .stored, .interrupted:
            return reply(.noContent, [.uploadOffset: stored])
        case .dropped:
            throw ChunkReceiver.DroppedOnPurpose()
        case .tooLong:
            return reply(.badRequest, [.uploadOffset: stored], error: "the chunk goes past Upload-Length")
        case .checksumMismatch:
            return reply(
                HTTPResponse.Status(code: 460, reasonPhrase: "Checksum Mismatch"),
                [.uploadOffset: stored],
                error: "the chunk does not match Upload-Checksum; it was not stored"
            )
        case .failed(let reason):
            return reply(.internalServerError, error: reason)
        }
    }

    private static func terminate(_ request: Request, context: SandboxContext, state: SandboxState) -> Response {
        if let refusal = versionMismatch(request) { return refusal }
        guard let id = context.parameters.get("id"), state.uploads.remove(.tus, id) else {
            return reply(.notFound, error: "no such upload")
        }
        return reply(.noContent)
    }

    private static func find(_ context: SandboxContext, state: SandboxState) -> Upload? {
        guard let id = context.parameters.get("id"), UploadStore.isValid(id: id) else { return nil }
        return state.uploads.find(.tus, id)
    }
}

/// `Upload-Metadata`: comma-separated pairs of a key and an optional base64 value.
enum TusMetadata {
    /// Keys non-empty, without spaces or commas, and unique; values base64.
    static func isValid(_ header: String) -> Bool {
        var keys: Set<Substring> = []
        return header.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { pair in
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let key = parts.first, parts.count <= 2, keys.insert(key).inserted else { return false }
            return parts.count == 1 || Data(base64Encoded: String(parts[1])) != nil
        }
    }
}

extension HTTPField.Name {
    static let tusResumable = Self("Tus-Resumable")!
    static let tusVersion = Self("Tus-Version")!
    static let tusExtension = Self("Tus-Extension")!
    static let tusMaxSize = Self("Tus-Max-Size")!
    static let tusChecksumAlgorithm = Self("Tus-Checksum-Algorithm")!
    static let uploadOffset = Self("Upload-Offset")!
    static let uploadLength = Self("Upload-Length")!
    static let uploadDeferLength = Self("Upload-Defer-Length")!
    static let uploadMetadata = Self("Upload-Metadata")!
    static let uploadChecksum = Self("Upload-Checksum")!
    static let methodOverride = Self("X-HTTP-Method-Override")!
}
