internal import CCurlShim
internal import CThreadName
import Dispatch
import FlowTasks
import Foundation

/// Owns libcurl's multi handle and runs every transfer, on one dedicated thread.
///
/// Why a thread looping on `curl_multi_poll` rather than DispatchSources fed by curl's socket
/// callback: curl opens and closes its sockets itself, and a DispatchSource must be cancelled,
/// and its cancel handler must have run, before its descriptor is closed or its number reused;
/// getting that right needs close-socket callbacks and deferred closes, and mistakes show up as
/// events for the wrong connection. A poll loop has none of that: it is how curl's own tool drives
/// `--parallel`, it is not a Dispatch worker (so waiting in poll starves no pool), and
/// `curl_multi_wakeup` interrupts the wait the moment a request arrives or is cancelled.
///
/// Other threads talk to the loop only through `inbox`, a lock-guarded list of commands; the
/// multi handle, the easy handles and the `Transfer` table never leave the loop thread.
final class CurlLoop: Sendable {
    typealias ProgressHandler = @Sendable (HTTPProgress) -> Void

    private enum Command: Sendable {
        case start(id: Int, request: HTTPRequest, progress: ProgressHandler?, promise: Promise<HTTPResponse>)
        case cancel(id: Int)
        /// Adds cookie lines to the jar, then lists every cookie (see `CookieJar`).
        case cookies(add: [String], promise: Promise<[String]>)
        /// Keeps connections opened ahead for the requests to come (see `WarmConnections`).
        case warm([WarmConnections.Socket])
    }

    private struct Inbox: Sendable {
        var commands: [Command] = []
        var nextID = 1
        /// Published by the loop once made; `nil` again once closed, so no wake-up can reach a
        /// multi handle being cleaned up.
        var multi: WakeHandle?
        /// A wake-up was sent and the loop has not yet taken the commands: no need for another.
        var wakePending = false
        /// The loop is running inline completions (see `completeInline`) and will look at the
        /// commands before it next polls: a command needs no wake-up, whose write and the
        /// poll it cuts short would cost a request started from such a callback two syscalls.
        var loopWillLook = false
        var closing = false
    }

    private let inbox = LockedBox(Inbox())
    private let configuration: HTTPClientConfiguration
    private let progressQueue = DispatchQueue(label: "flow.http.progress")
    /// How many curl easy handles the loop has made (see `EasyHandlePool`).
    let handlesMade = LockedBox(0)

    init(configuration: HTTPClientConfiguration) {
        self.configuration = configuration
        let thread = Thread { [self] in run() }
        thread.name = "flow.http"
        thread.start()
    }

    /// Queues a request; returns its id, or `nil` once the loop is shut down.
    func start(_ request: HTTPRequest, progress: ProgressHandler?, promise: Promise<HTTPResponse>) -> Int? {
        inbox.withLock { inbox in
            guard !inbox.closing else { return nil }
            let id = inbox.nextID
            inbox.nextID += 1
            inbox.commands.append(.start(id: id, request: request, progress: progress, promise: promise))
            Self.wake(&inbox)
            return id
        }
    }

    /// Aborts the transfer `id` if it is still running; curl closes its connection.
    func cancel(_ id: Int) {
        inbox.withLock { inbox in
            guard !inbox.closing else { return }
            inbox.commands.append(.cancel(id: id))
            Self.wake(&inbox)
        }
    }

    /// Adds `lines` (Netscape cookie-file lines) to the cookie jar, then gives every cookie in it as
    /// such lines.
    func cookies(adding lines: [String], promise: Promise<[String]>) {
        let queued = inbox.withLock { inbox in
            guard !inbox.closing else { return false }
            inbox.commands.append(.cookies(add: lines, promise: promise))
            Self.wake(&inbox)
            return true
        }
        if !queued { promise.fail(Self.shutDownError("the cookie jar")) }
    }

    /// Opens `count` connections to `host`:`port` on a thread of their own (the resolver blocks),
    /// then hands them to the loop for the next requests to that address.
    /// They are for requests started after this call, not for the one about to start.
    func openAhead(host: String, port: Int, count: Int) {
        let after = inbox.withLock { $0.nextID }
        let thread = Thread { [self] in
            flow_name_this_thread("flow.http.ahead")
            let sockets = WarmConnections.open(host: host, port: port, count: count).map { socket in
                var socket = socket
                socket.after = after
                return socket
            }
            guard !sockets.isEmpty else { return }
            let queued = inbox.withLock { inbox in
                guard !inbox.closing else { return false }
                inbox.commands.append(.warm(sockets))
                Self.wake(&inbox)
                return true
            }
            if !queued { WarmConnections.discard(sockets) }
        }
        thread.name = "flow.http.ahead"
        thread.start()
    }

    /// Aborts everything, frees every curl handle and ends the thread. Safe to call repeatedly.
    func shutdown() {
        inbox.withLock { inbox in
            guard !inbox.closing else { return }
            inbox.closing = true
            inbox.wakePending = false
            Self.wake(&inbox)
        }
    }

    private static func wake(_ inbox: inout Inbox) {
        guard !inbox.wakePending, !inbox.loopWillLook, let multi = inbox.multi else { return }
        inbox.wakePending = true
        _ = curl_multi_wakeup(multi.pointer)
    }

    /// The multi handle as other threads may use it: only to wake the loop.
    ///
    /// `@unchecked Sendable` is safe because `curl_multi_wakeup` is the one multi call curl
    /// documents as callable from any thread, and the handle is only reachable through `inbox`
    /// while it is valid (the loop withdraws it under the lock before cleaning up).
    private struct WakeHandle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    // MARK: The loop thread

    private func run() {
        // Foundation's `Thread.name` cannot be trusted to reach the kernel on Linux (see
        // CThreadName.h), and a new thread keeps its creator's name: crash reports and `top -H`
        // showed this loop as a Dispatch worker ("oot.default-qos"), which sent an exit-time
        // crash's diagnosis the wrong way.
        flow_name_this_thread("flow.http")
        guard CurlGlobal.initialized, let multi = curl_multi_init() else {
            closeWithoutCurl()
            return
        }
        _ = flow_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, Self.connectionLimit(configuration))
        _ = flow_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(0, configuration.maxConnectionsPerHost))
        inbox.withLock { $0.multi = WakeHandle(pointer: multi) }
        // The cookie jar of requests with `transport.cookies`. Every easy handle using it lives
        // on this thread, so the share needs no lock callbacks.
        let cookieShare = curl_share_init()
        if let cookieShare {
            _ = flow_share_setopt_long(cookieShare, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
        }
        var transfers: [Int: Transfer] = [:]
        let warm = WarmConnections()
        defer { warm.closeAll() }
        let handles = EasyHandlePool(made: handlesMade)
        /// Finished transfers, released (their handles given back) once the requests their
        /// callbacks sent have gone out, or before the loop waits: not between an answer and the
        /// request its callback sends.
        var retired: [Transfer] = []
        /// Transfers whose body's observer sees its bytes after they are sent (see `observeSent`).
        var observed: [Int] = []
        while true {
            let (commands, closing) = inbox.withLock { inbox in
                let taken = inbox.commands
                inbox.commands = []
                inbox.wakePending = false
                if inbox.closing { inbox.multi = nil }
                return (taken, inbox.closing)
            }
            if closing {
                close(multi, transfers: transfers, pending: commands)
                // Every easy handle must be gone before the share they used.
                transfers.removeAll()
                retired.removeAll()
                handles.closeAll()
                if let cookieShare { _ = curl_share_cleanup(cookieShare) }
                return
            }
            for command in commands {
                apply(
                    command, multi: multi, transfers: &transfers, cookieShare: cookieShare, warm: warm,
                    handles: handles)
                if case .start(let id, let request, _, _) = command, request.bodyObserver != nil,
                    case .reused = request.body
                {
                    observed.append(id)
                }
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            observeSent(&observed, transfers: transfers)
            // Those of an earlier turn: what their callbacks sent went out in this perform.
            retired.removeAll(keepingCapacity: true)
            let finished = collectFinished(multi, transfers: &transfers, handles: handles, retired: &retired)
            if finished.inline {
                // Commands sent from the inline callbacks sent no wake-up: take them now.
                let more = inbox.withLock { inbox in
                    inbox.loopWillLook = false
                    return !inbox.commands.isEmpty || inbox.closing
                }
                if more { continue }
            }
            retired.removeAll(keepingCapacity: true)
            handles.tidy()
            if finished.count > 0, transfers.isEmpty {
                awaitFollowUp()
            }
            _ = curl_multi_poll(multi, nil, 0, 1000, nil)
        }
    }

    /// The configured cap, lowered so connections leave descriptors for the rest of the process
    /// (see `DescriptorLimit.connectionCap`); 0 for none.
    static func connectionLimit(_ configuration: HTTPClientConfiguration) -> Int {
        let configured = max(0, configuration.maxConnections)
        guard let cap = DescriptorLimit.connectionCap else { return configured }
        return configured == 0 ? cap : min(configured, cap)
    }

    private func apply(
        _ command: Command, multi: UnsafeMutableRawPointer, transfers: inout [Int: Transfer],
        cookieShare: UnsafeMutableRawPointer?, warm: WarmConnections, handles: EasyHandlePool
    ) {
        switch command {
        case .start(let id, let request, let progress, let promise):
            guard !promise.isCompleted else { return }
            do {
                let transfer = try Transfer(
                    id: id, request: request, promise: promise, progress: progress, progressQueue: progressQueue,
                    cookieShare: cookieShare, handles: handles)
                transfer.warm = warm
                let added = curl_multi_add_handle(multi, transfer.easy)
                guard added == CURLM_OK else {
                    let text = String(cString: curl_multi_strerror(added))
                    promise.fail(
                        HTTPError(
                            kind: .other, message: "curl could not start \(transfer.url): \(text)", url: transfer.url))
                    return
                }
                transfers[id] = transfer
            } catch {
                promise.fail(error)
            }
        case .cancel(let id):
            guard let transfer = transfers.removeValue(forKey: id) else { return }
            // Removing an unfinished transfer makes curl close its connection, which the
            // server sees as the client hanging up.
            _ = curl_multi_remove_handle(multi, transfer.easy)
            transfer.promise.fail(FutureError.cancelled)
        case .cookies(let lines, let promise):
            guard let cookieShare else {
                promise.fail(HTTPError(kind: .other, message: "curl could not make a cookie jar", url: ""))
                return
            }
            promise.succeed(CookieJar.exchange(adding: lines, share: cookieShare))
        case .warm(let sockets):
            warm.add(sockets)
        }
    }

    /// Starts the transfer of a redirect's next hop in place of `transfer`; the error when it cannot.
    private func startHop(
        _ request: HTTPRequest, of transfer: Transfer, multi: UnsafeMutableRawPointer,
        transfers: inout [Int: Transfer], handles: EasyHandlePool
    ) -> HTTPError? {
        guard !transfer.promise.isCompleted else { return nil }
        do {
            let hop = try Transfer(
                id: transfer.id, request: request, promise: transfer.promise, progress: transfer.progress,
                progressQueue: progressQueue, cookieShare: transfer.cookieShare, handles: handles)
            hop.warm = transfer.warm
            let added = curl_multi_add_handle(multi, hop.easy)
            guard added == CURLM_OK else {
                let text = String(cString: curl_multi_strerror(added))
                return HTTPError(kind: .other, message: "curl could not start \(hop.url): \(text)", url: hop.url)
            }
            transfers[transfer.id] = hop
            return nil
        } catch {
            return error
        }
    }

    /// Shows the observers of `.reused` bodies what curl has just sent (see
    /// `RequestBodySource.observeSent`): an upload hashes a chunk while the server reads it, on
    /// this thread, which would otherwise wait in poll for the answer. Before `collectFinished`
    /// (which shows a finished transfer's last pieces too), so a request's future completes only
    /// once what it sent was all observed; a redirect's next hop keeps the id, and a finished or
    /// cancelled transfer leaves the list here.
    private func observeSent(_ observed: inout [Int], transfers: [Int: Transfer]) {
        guard !observed.isEmpty else { return }
        observed.removeAll { id in
            guard let transfer = transfers[id] else { return true }
            transfer.body.observeSent()
            return false
        }
    }

    /// Called when the last transfer in flight has just finished: its completion callback often
    /// starts the next request at once (chained steps, a caller walking pages). Yielding the
    /// core a few times while looking for it is cheaper than sleeping in poll and being woken,
    /// which costs a second trip through the scheduler per request. Only when nothing else is in
    /// flight: with other transfers running, poll has work coming anyway.
    private func awaitFollowUp() {
        for _ in 0..<64 {
            if inbox.withLock({ !$0.commands.isEmpty || $0.closing }) { return }
            sched_yield()
        }
    }

    /// Completes the promises of finished transfers; returns how many, and whether one was
    /// completed inline (`loopWillLook` is then set and the caller must clear it).
    private func collectFinished(
        _ multi: UnsafeMutableRawPointer, transfers: inout [Int: Transfer], handles: EasyHandlePool,
        retired: inout [Transfer]
    ) -> (count: Int, inline: Bool) {
        var finished = 0
        var inline = false
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = flow_multi_message_result(message)
            var privateData: UnsafeMutableRawPointer?
            _ = flow_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &privateData)
            _ = curl_multi_remove_handle(multi, easy)
            let alone = transfers.count == 1
            guard let id = privateData.map({ Int(bitPattern: $0) }),
                let transfer = transfers.removeValue(forKey: id)
            else { continue }
            // Done with curl: its handle may serve another request once released (see `retired`).
            transfer.recyclable = true
            retired.append(transfer)
            // A body the server answered before it was all sent: what went is observed too.
            transfer.body.observeSent(all: true)
            let outcome: Result<HTTPResponse, any Error>
            switch transfer.nextHop(code) {
            case .success(let request)?:
                // The same id and promise: cancelling the caller's future finds the new hop.
                let failure = startHop(request, of: transfer, multi: multi, transfers: &transfers, handles: handles)
                guard let failure else { continue }
                outcome = .failure(failure)
            case .failure(let refused)?:
                outcome = .failure(refused)
            case nil:
                outcome = transfer.outcome(code).mapError { $0 as any Error }
            }
            if alone {
                completeInline(transfer.promise, with: outcome)
                inline = true
            } else {
                transfer.promise.complete(outcome)
            }
            finished += 1
        }
        return (finished, inline)
    }

    /// Completes the only transfer that was in flight, letting callbacks that allow it
    /// (`Future.whenCompleteInline`) run here on the loop thread: a caller sending one request
    /// after another from its callback then pays no thread hop, neither for the answer nor for
    /// the next request (`loopWillLook` spares it the wake-up). With other transfers in flight
    /// they go to their queues as always, so one caller's callback cannot delay the others'
    /// transfers; other callbacks go to their queues whatever the count.
    private func completeInline(_ promise: Promise<HTTPResponse>, with outcome: Result<HTTPResponse, any Error>) {
        inbox.withLock { $0.loopWillLook = true }
        InlineCallbacks.run { promise.complete(outcome) }
    }

    private func close(_ multi: UnsafeMutableRawPointer, transfers: [Int: Transfer], pending: [Command]) {
        for transfer in transfers.values {
            _ = curl_multi_remove_handle(multi, transfer.easy)
            transfer.promise.fail(Self.shutDownError(transfer.url))
        }
        failPending(pending)
        _ = curl_multi_cleanup(multi)
    }

    private func closeWithoutCurl() {
        let pending = inbox.withLock { inbox in
            inbox.closing = true
            let taken = inbox.commands
            inbox.commands = []
            return taken
        }
        failPending(pending)
    }

    private func failPending(_ commands: [Command]) {
        for command in commands {
            switch command {
            case .start(_, let request, _, let promise): promise.fail(Self.shutDownError(request.fullURL))
            case .cookies(_, let promise): promise.fail(Self.shutDownError("the cookie jar"))
            case .warm(let sockets): WarmConnections.discard(sockets)
            case .cancel: break
            }
        }
    }

    static func shutDownError(_ url: String) -> HTTPError {
        HTTPError(kind: .cancelled, message: "the HTTP client was shut down before \(url) answered", url: url)
    }
}
