import FlowDigest
import Foundation
internal import Hummingbird

/// Health, echo, status, delay, bytes, redirect, redirect-to, sink and the event log.
enum BasicRoutes {
    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.get("health") { _, _ in JSONResponse.make(["status": "ok"]) }
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete, .head, .options] {
            router.on("echo", method: method) { request, context in
                try await echo(request, context: context, state: state)
            }
        }
        router.on("status/:code", method: .get) { _, context in status(context) }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("status/:code", method: method) { request, context in
                _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
                return status(context)
            }
        }
        router.get("delay/:ms") { _, context in await delay(context, state: state) }
        // A POST that takes its time: a request in flight when a run is killed (durable-run tests).
        router.post("delay/:ms") { request, context in
            _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
            return await delay(context, state: state)
        }
        router.get("bytes/:n") { request, context in bytes(request, context) }
        router.get("redirect/:n") { _, context in redirect(context) }
        // `/redirect-to?url=U&status=S`: a redirect anywhere (another origin, another scheme), as httpbin's.
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("redirect-to", method: method) { request, context in
                _ = try await RequestBodyReader.drain(request, context: context, events: state.events)
                return redirectTo(request)
            }
        }
        for method in [HTTPRequest.Method.put, .post] {
            router.on("sink", method: method) { request, context in
                try await sink(request, context: context, state: state)
            }
        }
        router.get("_events") { _, _ in JSONResponse.make(state.events.snapshot()) }
        router.post("_reset") { _, _ in
            state.reset()
            return JSONResponse.make(["reset": true])
        }
    }

    private struct Echo: Encodable {
        var method: String
        var path: String
        var query: [String: String]
        var headers: [String: String]
        var body: String
    }

    private static func echo(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        let body = try await RequestBodyReader.collect(
            request,
            context: context,
            events: state.events,
            limit: 16 << 20
        )
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            query[String(name)] = String(value)
        }
        let echo = Echo(
            method: request.method.rawValue,
            path: request.uri.path,
            query: query,
            headers: headers,
            body: String(decoding: body, as: UTF8.self)
        )
        return JSONResponse.make(echo)
    }

    private static func status(_ context: SandboxContext) -> Response {
        guard let code = context.parameters.get("code", as: Int.self), (200...599).contains(code) else {
            return JSONResponse.error("the status must be a number from 200 to 599", status: .badRequest)
        }
        return JSONResponse.make(["status": code], status: .init(code: code))
    }

    private static func delay(_ context: SandboxContext, state: SandboxState) async -> Response {
        guard let milliseconds = context.parameters.get("ms", as: Int.self), (0...600_000).contains(milliseconds)
        else {
            return JSONResponse.error("the delay must be a number of milliseconds up to 600000", status: .badRequest)
        }
        if let connection = context.connection,
            await connection.waitForHangUp(upTo: .milliseconds(milliseconds))
        {
            if let entry = context.entry { state.events.disconnected(entry) }
        }
        return JSONResponse.make(["delayed": milliseconds])
    }

    private static let maximumBytes = 1 << 30

    /// `n` bytes of `x`; with `?chunked=true` sent without a `Content-Length` (chunked), as an
    /// endless stream would be, so a client learns the size only as the bytes come.
    private static func bytes(_ request: Request, _ context: SandboxContext) -> Response {
        guard let count = context.parameters.get("n", as: Int.self), (0...maximumBytes).contains(count) else {
            return JSONResponse.error("n must be a number of bytes up to \(maximumBytes)", status: .badRequest)
        }
        let chunked = request.uri.queryParameters.get("chunked") == "true"
        let body = ResponseBody(contentLength: chunked ? nil : count) { writer in
            // Written in slices so a large body never sits in memory whole.
            let slice = ByteBuffer(repeating: UInt8(ascii: "x"), count: min(count, 64 << 10))
            var left = count
            while left > 0 {
                let size = min(left, slice.readableBytes)
                try await writer.write(slice.getSlice(at: 0, length: size) ?? slice)
                left -= size
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
    }

    private static func redirect(_ context: SandboxContext) -> Response {
        guard let count = context.parameters.get("n", as: Int.self), count >= 0 else {
            return JSONResponse.error("n must be a number of redirects, 0 or more", status: .badRequest)
        }
        if count == 0 { return JSONResponse.make(["redirected": true]) }
        return Response(status: .found, headers: [.location: "/redirect/\(count - 1)"])
    }

    private static func redirectTo(_ request: Request) -> Response {
        let status = request.uri.queryParameters.get("status", as: Int.self) ?? 302
        guard let url = request.uri.queryParameters.get("url"), [301, 302, 303, 307, 308].contains(status) else {
            return JSONResponse.error("give url=… and a status of 301, 302, 303, 307 or 308", status: .badRequest)
        }
        return Response(status: .init(code: status), headers: [.location: url])
    }

    private struct Digest: Encodable {
        var bytes: Int
        var sha256: String
    }

    private static func sink(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        var hasher = SHA256()
        var total = 0
        for try await buffer in request.body {
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            total += buffer.readableBytes
            if let entry = context.entry { state.events.received(buffer, for: entry) }
        }
        return JSONResponse.make(Digest(bytes: total, sha256: hasher.finalize().hexString))
    }
}
