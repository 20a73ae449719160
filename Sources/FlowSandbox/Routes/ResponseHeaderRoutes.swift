internal import HTTPTypes
internal import Hummingbird

/// `GET /response-headers?NAME=VALUE&…`: answers 200 with each query pair as a response header, in
/// the order given, a repeated name sent once per value (two `Server`, several `Set-Cookie`), as
/// httpbin's route of the same name does; the body lists them as `{"headers": [[name, value], …]}`.
/// Names that frame the message (`Content-Length`, `Transfer-Encoding`, `Connection`) and names or
/// values HTTP does not allow are refused with 400.
enum ResponseHeaderRoutes {
    private static let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.get("response-headers") { request, _ in respond(request) }
    }

    private static func respond(_ request: Request) -> Response {
        var headers = HTTPFields()
        var listed: [[String]] = []
        for (key, value) in request.uri.queryParameters {
            let name = String(key)
            let text = String(value)
            guard !framing.contains(name.lowercased()), let field = HTTPField.Name(name),
                text.utf8.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) })
            else {
                return JSONResponse.error("'\(name)' cannot be sent as a response header here", status: .badRequest)
            }
            headers.append(HTTPField(name: field, value: text))
            listed.append([name, text])
        }
        return JSONResponse.make(["headers": listed], headers: headers)
    }
}
