internal import Hummingbird

/// `POST /multipart`: reads a `multipart/form-data` body as it streams in and answers with each
/// part's name, filename, content type, size and sha256, in order, so tests can check that
/// every byte arrived. `?fail=N&key=K` answers 503 (after reading the whole body) to the first N
/// requests with that key, to test that a retried request sends the whole body again.
enum MultipartRoutes {
    private struct Report: Encodable {
        var parts: [MultipartReader.Part]
        var attempt: Int?
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        for method in [HTTPRequest.Method.post, .put] {
            router.on("multipart", method: method) { request, context in
                try await receive(request, context: context, state: state)
            }
        }
    }

    private static func receive(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        let type = request.headers[.contentType] ?? ""
        guard let boundary = MultipartReader.boundary(ofContentType: type) else {
            _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
            return JSONResponse.error(
                "expected Content-Type multipart/form-data with a boundary, got '\(type)'",
                status: .unsupportedMediaType)
        }
        var reader = MultipartReader(boundary: boundary)
        do {
            for try await buffer in request.body {
                if let entry = context.entry { state.events.received(buffer, for: entry) }
                try reader.feed(buffer.readableBytesView)
            }
        } catch let error as MultipartReader.Malformed {
            return JSONResponse.error("malformed multipart body: \(error.message)", status: .badRequest)
        }
        guard reader.finished else {
            return JSONResponse.error("the multipart body has no closing boundary", status: .badRequest)
        }
        let query = request.uri.queryParameters
        guard let key = query.get("key") else { return JSONResponse.make(Report(parts: reader.parts)) }
        let attempt = state.counters.next("multipart:" + String(key))
        let failures = query.get("fail", as: Int.self) ?? 0
        return JSONResponse.make(
            Report(parts: reader.parts, attempt: attempt),
            status: attempt <= failures ? .serviceUnavailable : .ok)
    }
}
