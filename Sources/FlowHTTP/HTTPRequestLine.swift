/// What a report shows of a request: its method and its URL with the query, as sent. The runner
/// makes it from the request it built, the dry run from the plan of that request, and both carry
/// it beside a step's result, so no reader takes it back out of the step's `result` value.
package struct HTTPRequestLine: Sendable, Hashable, CustomStringConvertible {
    /// The method, such as `GET` or `PUT`, as written.
    package let method: String
    /// The absolute URL with the query encoded onto it.
    package let url: String

    /// A request line.
    package init(method: String, url: String) {
        self.method = method
        self.url = url
    }

    /// `METHOD URL`, as reports and the dry run print it.
    package var description: String { method + " " + url }
}

extension HTTPRequest {
    /// The request's method and `fullURL`.
    package var line: HTTPRequestLine { HTTPRequestLine(method: method, url: fullURL) }
}
