import Foundation
internal import Hummingbird

/// A cookie login and a Basic-auth endpoint, for the cookie jar and `auth:` of `http` steps.
///
/// - `POST /session/login` with JSON `{"user", "password"}` (the demo account) sets the cookie
///   `session=<token>` and answers `{"user"}`.
/// - `GET /me` answers `{"user"}` with that cookie, 401 without it.
/// - `GET /basic-auth` answers `{"user"}` with `Authorization: Basic` of the demo account, 401
///   (with `WWW-Authenticate`) without it.
enum CookieRoutes {
    private struct Credentials: Decodable {
        var user: String
        var password: String
    }

    static let cookieName = "session"

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.post("session/login") { request, context in
            let body = try await RequestBodyReader.collect(
                request, context: context, events: state.events, limit: 1 << 20)
            guard let credentials = try? JSONDecoder().decode(Credentials.self, from: Data(body)) else {
                return JSONResponse.error("send JSON {\"user\": \"...\", \"password\": \"...\"}", status: .badRequest)
            }
            guard credentials.user == Sessions.user, credentials.password == Sessions.password else {
                return JSONResponse.error("wrong user or password", status: .unauthorized)
            }
            let token = state.sessions.open(for: credentials.user)
            var headers = HTTPFields()
            headers[.setCookie] = "\(cookieName)=\(token); Path=/; HttpOnly"
            return JSONResponse.make(["user": credentials.user], headers: headers)
        }
        router.get("me") { request, _ in
            guard let token = sessionCookie(request), let user = state.sessions.user(for: token) else {
                return JSONResponse.error("no session cookie: POST /session/login first", status: .unauthorized)
            }
            return JSONResponse.make(["user": user])
        }
        router.get("basic-auth") { request, _ in
            guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
                let decoded = Data(base64Encoded: String(header.dropFirst("Basic ".count))),
                String(decoding: decoded, as: UTF8.self) == "\(Sessions.user):\(Sessions.password)"
            else {
                var headers = HTTPFields()
                headers[.wwwAuthenticate] = "Basic realm=\"sandbox\""
                return JSONResponse.error(
                    "Basic auth of the demo account required", status: .unauthorized, headers: headers)
            }
            return JSONResponse.make(["user": Sessions.user])
        }
    }

    /// The value of the `session` cookie, from any `Cookie` header.
    private static func sessionCookie(_ request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0] == cookieName { return String(parts[1]) }
            }
        }
        return nil
    }
}
