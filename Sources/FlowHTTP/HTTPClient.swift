import Dispatch
import FlowTasks
import Foundation

/// An HTTP client on libcurl's multi interface: any number of requests in flight, connections
/// kept alive and reused, results as futures.
///
/// Requests run on one internal thread (see `CurlLoop`); no Dispatch worker ever waits for the
/// network. Futures run their default callbacks on the client's own serial queue, so heavy work
/// belongs on a queue the caller names. Cancelling a returned future aborts its transfer and
/// closes its connection; releasing the client shuts it down.
package final class HTTPClient: Sendable {
    private let loop: CurlLoop
    private let queue = DispatchQueue(label: "flow.http.client")

    /// A client with its own connection pool.
    package init(configuration: HTTPClientConfiguration = .init()) {
        // Before the loop thread starts, so curl is set up once while no other thread uses it.
        _ = CurlGlobal.initialized
        loop = CurlLoop(configuration: configuration)
    }

    deinit {
        loop.shutdown()
    }

    /// Sends `request`; the future gives the response whatever its status, or fails with an
    /// `HTTPError` (or `FutureError.cancelled` once cancelled). `progress` runs on a private
    /// serial queue, in order, as bytes move.
    package func execute(
        _ request: HTTPRequest,
        progress: (@Sendable (HTTPProgress) -> Void)? = nil
    ) -> Future<HTTPResponse> {
        if let problem = request.validationProblem {
            return .failed(HTTPError(kind: .invalidRequest, message: problem, url: request.url), on: queue)
        }
        let promise = Promise<HTTPResponse>(on: queue)
        guard let id = loop.start(request, progress: progress, promise: promise) else {
            promise.fail(CurlLoop.shutDownError(request.fullURL))
            return promise.future
        }
        promise.onCancel { [loop] in loop.cancel(id) }
        return promise.future
    }

    /// Opens `connections` connections to the host and port of the `http://` URL `url` now, for
    /// requests about to go there together: each takes one instead of opening its own, which
    /// spares it a connection set-up (a round trip). Only plain HTTP: over TLS, requests wait for
    /// the first handshake to learn whether the server multiplexes (HTTP/2). Connections no
    /// request takes are closed unused, after at most `WarmConnections.maxAge`, or at shutdown.
    package func openAhead(to url: String, connections: Int) {
        guard connections > 0, let origin = URLComponents(string: url), origin.scheme?.lowercased() == "http",
            var host = origin.host, !host.isEmpty
        else { return }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        loop.openAhead(host: host, port: origin.port ?? 80, count: connections)
    }

    /// Adds cookies to the jar that requests with `transport.cookies` share: `lines` of a Netscape
    /// cookie file (curl's `-b FILE`; comments and blank lines are skipped by curl). The future
    /// gives every cookie then in the jar, as lines of such a file (curl's `-c FILE`), so
    /// `cookies(adding: [])` reads the jar.
    package func cookies(adding lines: [String]) -> Future<[String]> {
        let promise = Promise<[String]>(on: queue)
        loop.cookies(adding: lines, promise: promise)
        return promise.future
    }

    /// How many curl easy handles the client has made so far: requests sent one after another
    /// reuse them (see `EasyHandlePool`), so this stays small however many requests go out.
    package var curlHandlesMade: Int {
        loop.handlesMade.withLock { $0 }
    }

    /// Aborts every request in flight (their futures fail with kind `.cancelled`) and frees the
    /// connections. Later requests fail at once. Safe to call more than once.
    package func shutdown() {
        loop.shutdown()
    }
}
