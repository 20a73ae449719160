import FlowDSL
import FlowHTTP

/// The fields of a response's `result` that come from its status line and headers: `headers` (the
/// first value of each, under lower-cased names), `header_values` (every value, in order),
/// `cookies` (each `Set-Cookie` by name, with its attributes) and `version`.
enum ResponseHeaderFields {
    /// Those fields of `response`.
    static func fields(of response: HTTPResponse) -> [String: Value] {
        var first: [String: Value] = [:]
        var every: [String: [Value]] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            if first[key] == nil { first[key] = .string(value) }
            every[key, default: []].append(.string(value))
        }
        return [
            "headers": .object(first),
            "header_values": .object(every.mapValues { .array($0) }),
            "cookies": cookies(response.headers.values(for: "Set-Cookie")),
            "version": .string(response.httpVersion),
        ]
    }

    /// Each cookie a `Set-Cookie` sets, by name; a name set twice keeps the last, as a jar would.
    /// Attributes the header leaves out are `null` (`secure` and `http_only` are `false`).
    static func cookies(_ headers: [String]) -> Value {
        var cookies: [String: Value] = [:]
        for header in headers {
            guard let cookie = SetCookie(header) else { continue }
            cookies[cookie.name] = .object([
                "name": .string(cookie.name),
                "value": .string(cookie.value),
                "expires": cookie.expires.map(Value.string) ?? .null,
                "max_age": cookie.maxAge.map { .number(Double($0)) } ?? .null,
                "domain": cookie.domain.map(Value.string) ?? .null,
                "path": cookie.path.map(Value.string) ?? .null,
                "secure": .bool(cookie.secure),
                "http_only": .bool(cookie.httpOnly),
                "same_site": cookie.sameSite.map(Value.string) ?? .null,
            ])
        }
        return .object(cookies)
    }
}
