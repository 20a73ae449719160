import FlowHTTP

/// The request an `http` step sent, as the JSON report's `request` shows it: its method and its
/// URL with the query, secrets masked.
///
/// ```swift
/// if case .stepFinished(let result) = event, let request = result.request {
///     print(result.step, request)  // fetch GET https://api.example.com/items?page=2
/// }
/// ```
public struct FlowRequestLine: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, …
    public let method: String
    /// The absolute URL with its query, secrets masked.
    public let url: String

    /// `METHOD URL`.
    public var description: String { method + " " + url }

    init(_ line: HTTPRequestLine, masker: (String) -> String) {
        method = masker(line.method)
        url = masker(line.url)
    }
}
