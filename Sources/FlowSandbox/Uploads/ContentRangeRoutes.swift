internal import Hummingbird

/// Content-Range resumable uploads at `/uploads/cr/{id}`.
///
/// Chunks are `PUT` (or `POST`) with `Content-Range: bytes a-b/total`; the answer is 308 with
/// `Range: bytes=0-N` until the upload is complete, then 200 with `{size, sha256}`.
/// `Content-Range: bytes */total` with an empty body asks where the upload stands.
enum ContentRangeRoutes {
    private struct Completed: Encodable {
        var size: Int
        var sha256: String
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        for method in [HTTPRequest.Method.put, .post] {
            router.on("uploads/cr/:id", method: method) { request, context in
                try await put(request, context: context, state: state)
            }
        }
    }

    private static func put(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        guard let id = context.parameters.get("id"), UploadStore.isValid(id: id) else {
            return JSONResponse.error("the upload id may use letters, digits, '-', '_' and '.'", status: .badRequest)
        }
        guard let header = request.headers[.contentRange], let range = ContentRange(header) else {
            return JSONResponse.error(
                "send Content-Range: bytes first-last/total with a chunk, or bytes */total to ask for the offset",
                status: .badRequest
            )
        }
        let dropAt = request.uri.queryParameters.get("drop-at", as: Int.self)
        switch range {
        case .query(let total):
            _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
            let existing = state.uploads.find(.contentRange, id)
            if existing == nil && total > 0 {
                // Nothing stored yet: 308 without Range tells the client to start at byte 0.
                return Response(status: .permanentRedirect, headers: [.contentLength: "0"])
            }
            let upload = try existing ?? state.uploads.findOrCreate(.contentRange, id, length: total, dropAt: dropAt)
            guard upload.length == total else { return totalMismatch(upload) }
            upload.armDrop(at: dropAt)
            upload.armDrops(every: request.uri.queryParameters.get("drop-every", as: Int.self))
            return status(of: upload)
        case .chunk(let first, let last, let total):
            let span = last - first + 1
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared != span {
                return JSONResponse.error(
                    "Content-Length \(declared) does not match Content-Range \(first)-\(last) (\(span) bytes)",
                    status: .badRequest
                )
            }
            let upload = try state.uploads.findOrCreate(.contentRange, id, length: total, dropAt: dropAt)
            guard upload.length == total else { return totalMismatch(upload) }
            upload.armDrop(at: dropAt)
            upload.armDrops(every: request.uri.queryParameters.get("drop-every", as: Int.self))
            upload.setPace(milliseconds: request.uri.queryParameters.get("pace-ms", as: Int.self))
            return try await receive(request, span: span, first: first, upload: upload, context: context, state: state)
        }
    }

    private static func receive(
        _ request: Request,
        span: Int,
        first: Int,
        upload: Upload,
        context: SandboxContext,
        state: SandboxState
    ) async throws -> Response {
        switch upload.beginChunk(at: first) {
        case .failure(.gone):
            return JSONResponse.error("the upload was removed", status: .notFound)
        case .failure(.offsetMismatch), .failure(.busy):
            // Refused: say where the upload stands so the client can continue from there.
            var response = status(of: upload)
            response.status = .rangeNotSatisfiable
            response.headers[.contentRange] = "bytes */\(upload.length)"
            return response
        case .success(let writer):
            let outcome = await ChunkReceiver.receive(
                request.body,
                into: upload,
                writer: writer,
                declaredLength: span,
                checksum: nil,
                context: context,
                events: state.events
            )
            switch outcome {
            case .stored, .interrupted:
                if outcome == .stored { try await Task.sleep(for: upload.pace) }
                let stored = upload.snapshot().offset
                if stored < first + span && outcome == .stored {
                    var response = status(of: upload)
                    response.status = .badRequest
                    return response
                }
                return status(of: upload)
            case .dropped:
                throw ChunkReceiver.DroppedOnPurpose()
            case .tooLong, .checksumMismatch:
                return JSONResponse.error("the chunk goes past the upload's total", status: .badRequest)
            case .failed(let reason):
                return JSONResponse.error(reason, status: .internalServerError)
            }
        }
    }

    /// 200 with `{size, sha256}` when complete, else 308 with the `Range` stored so far.
    private static func status(of upload: Upload) -> Response {
        let snapshot = upload.snapshot()
        if snapshot.complete {
            return JSONResponse.make(Completed(size: snapshot.offset, sha256: snapshot.sha256))
        }
        var headers: HTTPFields = [.contentLength: "0"]
        if snapshot.offset > 0 { headers[.range] = "bytes=0-\(snapshot.offset - 1)" }
        return Response(status: .permanentRedirect, headers: headers)
    }

    private static func totalMismatch(_ upload: Upload) -> Response {
        JSONResponse.error(
            "this upload's total is \(upload.length) bytes; every Content-Range must say /\(upload.length)",
            status: .badRequest
        )
    }
}
