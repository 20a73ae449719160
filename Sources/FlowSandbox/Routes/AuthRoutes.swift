import Foundation
internal import Hummingbird

/// `POST /login` and the bearer-protected `/api/*` fixtures (the users-and-reports example).
enum AuthRoutes {
    private struct Credentials: Decodable {
        var user: String
        var password: String
    }

    /// One user of the fixture.
    struct User: Encodable {
        var id: Int
        var name: String
        var email: String
    }

    /// One report of the fixture, owned by a user.
    struct Report: Encodable {
        var id: Int
        var userId: Int
        var title: String
    }

    static let users = [
        User(id: 1, name: "Ada Lovelace", email: "ada@example.com"),
        User(id: 2, name: "Grace Hopper", email: "grace@example.com"),
        User(id: 3, name: "Alan Turing", email: "alan@example.com"),
    ]

    static let reports = [
        Report(id: 101, userId: 1, title: "Analytical engine notes"),
        Report(id: 102, userId: 2, title: "Compiler field trial"),
        Report(id: 103, userId: 3, title: "Computable numbers"),
        Report(id: 104, userId: 1, title: "Bernoulli numbers"),
    ]

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.post("login") { request, context in
            try await login(request, context: context, state: state)
        }
        router.get("api/users") { request, _ in
            authorized(request, state: state) ? JSONResponse.make(users) : unauthorized()
        }
        router.get("api/reports") { request, _ in
            authorized(request, state: state) ? JSONResponse.make(reports) : unauthorized()
        }
        for path in ["import", "notify"] {
            router.post(RouterPath(path)) { request, context in
                let body = try await RequestBodyReader.collect(
                    request,
                    context: context,
                    events: state.events,
                    limit: 1 << 20
                )
                return JSONResponse.make(["accepted": body.count], status: .accepted)
            }
        }
    }

    private static func login(_ request: Request, context: SandboxContext, state: SandboxState) async throws
        -> Response
    {
        let body = try await RequestBodyReader.collect(request, context: context, events: state.events, limit: 1 << 20)
        guard let credentials = try? JSONDecoder().decode(Credentials.self, from: Data(body)) else {
            return JSONResponse.error(
                "send JSON {\"user\": \"...\", \"password\": \"...\"}",
                status: .badRequest
            )
        }
        guard credentials.user == Sessions.user, credentials.password == Sessions.password else {
            return JSONResponse.error("wrong user or password", status: .unauthorized)
        }
        return JSONResponse.make(["token": state.sessions.open(for: credentials.user)])
    }

    private static func authorized(_ request: Request, state: SandboxState) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        return state.sessions.user(for: token) != nil
    }

    private static func unauthorized() -> Response {
        JSONResponse.error(
            "send Authorization: Bearer <token> with a token from POST /login",
            status: .unauthorized,
            headers: [.wwwAuthenticate: "Bearer"]
        )
    }
}
