internal import Hummingbird

/// `/reflect/{code}`: answers with that status and the request exactly as it arrived (its body,
/// then the method and the still-encoded target, then the headers), so tests can see what a
/// server echoing a request back would show: a URL's percent-encoding, a form's `+`, a JSON body.
///
/// `?pad=N` puts N dots in front (to move the echoed text across a cut in a message); `?as=json`
/// answers `{"reflected": "…"}` escaped the way PHP's `json_encode` does (`\/`, and `\uXXXX` for
/// every character outside ASCII).
enum ReflectRoute {
    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("reflect/:code", method: method) { request, context in
                try await reflect(request, context: context, state: state)
            }
        }
    }

    private static func reflect(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        guard let code = context.parameters.get("code", as: Int.self), (200...599).contains(code), code != 204,
            code != 304
        else {
            return JSONResponse.error(
                "the status must be a number from 200 to 599 (not 204 or 304)", status: .badRequest)
        }
        let body = try await RequestBodyReader.collect(request, context: context, events: state.events, limit: 1 << 20)
        let pad = min(max(request.uri.queryParameters.get("pad", as: Int.self) ?? 0, 0), 1 << 20)
        var text = String(repeating: ".", count: pad) + String(decoding: body, as: UTF8.self)
        text += "\n\(request.method.rawValue) \(request.uri.string)\n"
        for field in request.headers { text += "\(field.name.canonicalName): \(field.value)\n" }
        let asJSON = request.uri.queryParameters.get("as") == "json"
        let payload = asJSON ? #"{"reflected":""# + escaped(text) + #""}"# : text
        return Response(
            status: .init(code: code),
            headers: [.contentType: asJSON ? "application/json" : "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: payload)))
    }

    /// JSON string contents with `/` and every non-ASCII character escaped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += #"\""#
            case 0x5C: out += #"\\"#
            case 0x2F: out += #"\/"#
            case 0x0A: out += #"\n"#
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += #"\u"# + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }
}
