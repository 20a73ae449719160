import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// What a finished upload reports: the final response and what was sent.
struct UploadOutcome: Sendable {
    let response: HTTPResponse
    /// The upload's own URL (tus) or the final response's `Location`, else the URL sent to.
    let location: String
    let bytes: Int64
    let sha256: String
    /// Attempts made: 1 plus one for each error recovered from.
    let attempts: Int
}

/// One run of an upload step: chunks in order, and after any error, asking the server how much it
/// holds and continuing from exactly there — never from what the client assumes it sent.
///
/// Every field below the lets is touched only inside `enter`, which holds `executor` (the lock is
/// their one owner), which is why this class can be `@unchecked Sendable`. Code enters from a
/// block on `queue`, or inline on the HTTP client's thread when a chunk's answer arrives there
/// (`Future.whenCompleteInline`): the next chunk then goes out with no thread hop at all. The
/// cancel handler reaches the fields only through `queue`, the request in flight through
/// `cancelCurrent`'s own lock, and the driver's state through the driver's lock.
final class UploadSession: @unchecked Sendable {
    let target: UploadTarget
    let client: HTTPClient
    let queue: DispatchQueue
    let masker: SecretMasker
    private let driver: any UploadProtocolDriver
    private let report: @Sendable (StepProgress) -> Void
    private let cleanups: CleanupTracker
    private let digest: StreamDigest
    private let promise: Promise<UploadOutcome>
    private let progress = ProgressThrottle()
    /// An earlier run's session of this upload, to continue (see `UploadDurability`).
    private let adopted: TransferSession?
    /// Told where the upload lives and how many bytes the server confirmed, for the journal.
    private let recordSession: (@Sendable (_ target: String, _ confirmed: Int64) -> Void)?

    /// Held while the fields below run: see the class's comment. An `Int` it does not use, not
    /// `()` (see `LockedBox`: the one thread-sanitizer report CI saw in session 7).
    private let executor = LockedBox(0)
    /// Cancels the request in flight; its own lock, since drivers send from their callbacks too.
    private let cancelCurrent = LockedBox<(@Sendable () -> Void)?>(nil)
    /// Errors since the server's offset last moved forward, which it bounds, and the attempts made.
    private var budget: RetryBudget
    private var finished = false
    /// Whether the server has acknowledged any of this run's bytes; until it has, holding more
    /// than was sent means an earlier run's upload to the same URL, which is continued.
    private var acknowledged = false
    /// Whether this is an interrupted run's session, continued (see `adopt`): the same file on the
    /// same upload, so the server holding all of it means the interrupted run sent it all.
    private var adoptedSession = false
    /// The file's md5 and crc32c, hashed after the fact for a server that reported them though it
    /// was not taken for GCS (see `StreamDigest.gcsDigests`).
    private var lateGCSDigests: (md5: String, crc32c: String)?
    /// When the file was last checked unchanged between chunks (a `stat`): at most every 100 ms,
    /// since `finish` checks it again before the upload can succeed anyway.
    private var fileCheck = Pacer(every: .milliseconds(100))
    /// When the journal was last told the confirmed offset: at most every 100 ms (a resumed run
    /// asks the server for the offset anyway; the upload's URL is recorded before the first chunk).
    private var offsetRecord = Pacer(every: .milliseconds(100))

    init(
        target: UploadTarget, client: HTTPClient, rules: UploadRetryRules, masker: SecretMasker,
        cleanups: CleanupTracker,
        queue: DispatchQueue, report: @escaping @Sendable (StepProgress) -> Void,
        adopted: TransferSession? = nil, recordSession: (@Sendable (String, Int64) -> Void)? = nil
    ) {
        self.adopted = adopted
        self.recordSession = recordSession
        self.target = target
        digest = StreamDigest(gcsDigests: target.isGoogleCloudStorage)
        self.client = client
        budget = RetryBudget(rules.policy())
        self.masker = masker
        self.cleanups = cleanups
        self.queue = DispatchQueue(label: "flow.upload", target: queue)
        self.report = report
        switch target.uploadProtocol {
        // `s3` uploads run in `S3MultipartSession`, never here.
        case .contentRange, .s3: driver = ContentRangeDriver()
        case .tus: driver = TusDriver()
        }
        promise = Promise(on: queue)
    }

    /// Starts the upload; cancelling the future stops it (and deletes a tus upload when the server
    /// supports termination).
    func start() -> Future<UploadOutcome> {
        let driver = driver
        promise.onCancel { [self] in
            // Registered at once, on the cancelling thread, so the run waits for it before it ends.
            if let (cleanup, line) = driver.abandon(self) {
                cleanups.add(cleanup)
                report(.line(line, stream: .stderr))
            }
            queue.async { self.enter { self.stop() } }
        }
        queue.async { [self] in enter { started() } }
        return promise.future
    }

    /// Runs `body` as the fields' owner (see the class's comment). Never called from inside
    /// itself: it runs only from a block or a future's callback, which never run nested.
    private func enter(_ body: () -> Void) {
        executor.withLock { _ in body() }
    }

    private func started() {
        report(.attempt(1))
        report(.bytes(done: 0, total: target.file.size))
        if let adopted {
            guard adopted.fileIdentity != target.file.identityText else { return self.adopt(adopted) }
            report(
                .line(
                    "'\(masker(target.file.path))' changed since the interrupted run; uploading it from the start",
                    stream: .stderr))
        }
        begin()
    }

    /// A new upload: the protocol's preparation (tus: creation), then the chunks from byte 0.
    private func begin() {
        perform(driver.prepare(self), recoverFrom: 0) { _ in
            self.recordSession?(self.driver.uploadURL ?? self.target.url, 0)
            self.next(from: 0)
        }
    }

    /// Continues an interrupted run's upload: asks the server how much it holds (tus `HEAD`,
    /// `Content-Range: bytes */total`) and goes on from there; never a new creation unless the
    /// server no longer knows the upload.
    private func adopt(_ session: TransferSession) {
        adoptedSession = true
        driver.adopt(session.target)
        report(
            .line(
                "continuing the upload of the interrupted run (\(masker(session.target))); asking the server how much "
                    + "it holds", stream: .stderr))
        driver.ask(self).whenComplete(on: queue) { [self] result in enter { adopted(result) } }
    }

    private func adopted(_ result: Result<ServerAnswer, any Error>) {
        guard !finished else { return }
        switch result {
        case .success(let answer):
            if case .offset(let held, _) = answer {
                report(.line("the server holds \(held) of \(target.file.size) bytes", stream: .stderr))
            }
            handle(answer, sentFrom: nil)
        case .failure(FutureError.cancelled):
            return
        case .failure(let error as UploadStatusError)
        where Self.forgets(error) && target.uploadProtocol == .contentRange:
            // A Content-Range upload's URL is its session: starting over there gets the same answer.
            // The server forgetting it is what servers do once an upload is finished, so say what a
            // lost final answer says, with the file's size and hashes to check the stored object by.
            perform(digest.catchUp(path: target.file.path, to: target.file.size, queue: queue), recoverFrom: 0) { _ in
                self.fail(
                    UploadProtocolError(
                        description: self.possiblyComplete(
                            "the server no longer knows the earlier run's upload (\(error.request) got "
                                + "\(error.response.status))") ?? Self.message(of: error, masker: self.masker)))
            }
        case .failure(let error):
            report(
                .line(
                    "\(Self.message(of: error, masker: masker)); the server no longer has that upload, "
                        + "starting it over", stream: .stderr))
            begin()
        }
    }

    // MARK: Requests

    /// Chunks of at least this size report progress as their bytes go out; smaller ones only
    /// between chunks.
    static let progressWithinChunk: Int64 = 1 << 20

    /// Sends a request of the upload (the step's headers added); `chunkStart` marks a chunk, whose
    /// bytes feed the sha256 and the progress reports.
    func send(_ request: HTTPRequest, chunkStart: Int64? = nil) -> Future<HTTPResponse> {
        var request = target.withStepHeaders(request)
        var onProgress: (@Sendable (HTTPProgress) -> Void)?
        if let chunkStart {
            // The server may store a chunk whose answer is lost: never let curl send it again by
            // itself (as it does when a kept-alive connection dies); the upload asks first.
            request.mayResendBody = false
            let digest = digest
            // A file body's pieces come with their file offsets; bytes in memory (a tus chunk
            // kept from its checksum's read) with offsets into the body, which starts at the chunk.
            let base: Int64
            switch request.body {
            case .bytes, .reused: base = chunkStart
            default: base = 0
            }
            let end = chunkStart + request.body.count
            if case .reused = request.body, end < target.file.size {
                // Seen just after curl sent it (see `HTTPRequest.bodyObserver`): once the chunk's
                // last byte went out, the next chunk is read while the server handles this one.
                let (driver, length) = (driver, min(target.chunkSize, target.file.size - end))
                request.bodyObserver = { [self] offset, bytes in
                    digest.feed(offset: base + offset, bytes)
                    if base + offset + Int64(bytes.count) == end { driver.readAhead(self, offset: end, length: length) }
                }
            } else {
                request.bodyObserver = { offset, bytes in digest.feed(offset: base + offset, bytes) }
            }
            // Within a chunk only when it is large: a small one is sent in well under the 100 ms
            // between reports, and each report from curl's thread is a hop to another queue.
            if request.body.count >= Self.progressWithinChunk {
                let (report, progress, total) = (report, progress, target.file.size)
                onProgress = { sent in
                    if progress.due() { report(.bytes(done: chunkStart + sent.bytesSent, total: total)) }
                }
            }
        } else {
            request.timeout = target.controlTimeout
        }
        let future = client.execute(request, progress: onProgress)
        cancelCurrent.withLock { $0 = { future.cancel() } }
        return future
    }

    /// The server's answer to `request`, from `transform`: run inline on the HTTP client's thread
    /// when it allows (a single transfer in flight), else on `queue`. `transform` must only read
    /// the session's lets (and the driver's locked state).
    func answer(
        _ request: Future<HTTPResponse>, _ transform: @escaping @Sendable (HTTPResponse) throws -> ServerAnswer
    ) -> Future<ServerAnswer> {
        let promise = Promise<ServerAnswer>(on: queue)
        promise.onCancel { request.cancel() }
        request.whenCompleteInline(otherwiseOn: queue) { result in
            promise.complete(result.flatMap { response in Result { try transform(response) } })
        }
        return promise.future
    }

    // MARK: The loop

    /// Continues from the server's `offset`: the next chunk, or, for an empty file, asking.
    private func next(from offset: Int64) {
        guard !finished else { return }
        if progress.due() { report(.bytes(done: offset, total: target.file.size)) }
        if fileCheck.due() {
            do {
                try target.file.checkUnchanged()
            } catch {
                return fail(error)
            }
        }
        if target.file.size == 0 {
            perform(driver.ask(self), recoverFrom: offset) { self.handle($0, sentFrom: nil) }
            return
        }
        let length = min(target.chunkSize, target.file.size - offset)
        perform(driver.send(self, offset: offset, length: length), recoverFrom: offset) {
            self.handle($0, sentFrom: offset)
        }
    }

    /// Acts on the server's answer; `sentFrom` is where the chunk just sent began (nil after asking).
    private func handle(_ answer: ServerAnswer, sentFrom: Int64?) {
        switch answer {
        case .complete(let response):
            finish(response)
        case .offset(let offset, let response):
            let sent = digest.hashedBytes
            guard offset >= 0, offset <= target.file.size else {
                return fail(
                    UploadProtocolError(
                        description: "the server says it holds \(offset) bytes of a \(target.file.size)-byte file"))
            }
            guard offset <= sent else {
                guard !acknowledged else {
                    return fail(
                        UploadProtocolError(
                            description: "the server says it holds \(offset) bytes, but only \(sent) of "
                                + "\(target.file.size) were sent"))
                }
                return continueEarlierUpload(holding: offset, answer: answer)
            }
            acknowledged = true
            if offset == target.file.size { return finish(response) }
            if let sentFrom, offset <= sentFrom {
                // A chunk was accepted without the offset moving: count it like an error, so a
                // server that never advances cannot keep the upload going forever.
                return recover(
                    from: UploadProtocolError(
                        description:
                            "the server accepted the chunk at byte \(sentFrom) but still holds only \(offset) bytes"),
                    at: sentFrom)
            }
            if let sentFrom, offset > sentFrom { budget.progressed() }
            if let recordSession, offsetRecord.due() { recordSession(driver.uploadURL ?? target.url, offset) }
            next(from: offset)
        }
    }

    /// Runs one exchange; on failure, recovers (ask and continue) within the retry budget.
    private func perform<Value: Sendable>(
        _ future: Future<Value>, recoverFrom offset: Int64, then body: @escaping @Sendable (Value) -> Void
    ) {
        // Inline when the future completes inline (a chunk's answer, see `answer`); see `enter`.
        future.whenCompleteInline(otherwiseOn: queue) { [self] result in
            enter {
                guard !finished else { return }
                switch result {
                case .success(let value): body(value)
                case .failure(let error): recover(from: error, at: offset)
                }
            }
        }
    }

    /// After an error: give up when it is not worth retrying or the budget is spent; otherwise
    /// wait, ask the server where it stands, and continue from there.
    private func recover(from error: any Error, at offset: Int64) {
        guard !finished else { return }
        let wait: Duration
        switch budget.spend(on: error, reason: { Self.recoveryReason(error, masker: masker) }, report: report) {
        case .cancelled: return
        case .final: return fail(error)
        case .spent:
            let failures = budget.failures
            return fail(
                UploadProtocolError(
                    description: "\(Self.message(of: error, masker: masker)) (gave up after \(failures) "
                        + (failures == 1 ? "attempt " : "attempts ")
                        + "without progress, at byte \(offset) of \(target.file.size))"))
        case .retry(let after): wait = after
        }
        report(
            .line(
                "\(Self.recoveryReason(error, masker: masker)); asking the server how much it holds, then resuming",
                stream: .stderr))
        perform(Future<Void>.delay(wait, on: queue), recoverFrom: offset) { [self] _ in
            perform(driver.ask(self), recoverFrom: offset) { answer in
                if case .offset(let held, _) = answer {
                    self.report(.line("the server holds \(held) of \(self.target.file.size) bytes", stream: .stderr))
                }
                self.handle(answer, sentFrom: nil)
            }
        }
    }

    /// The server holds `held` bytes before acknowledging any of this run's: an earlier run's
    /// upload to the same URL (interrupted, or finished with its answer lost). Its bytes are hashed
    /// from the file rather than sent again, and the upload goes on from there; the final size and
    /// hash checks still apply.
    private func continueEarlierUpload(holding held: Int64, answer: ServerAnswer) {
        acknowledged = true
        report(
            .line(
                "the server already holds \(held) of \(target.file.size) bytes (left by an earlier run); "
                    + "continuing from there", stream: .stderr))
        perform(digest.catchUp(path: target.file.path, to: held, queue: queue), recoverFrom: held) { _ in
            self.handle(answer, sentFrom: nil)
        }
    }

    private func finish(_ response: HTTPResponse) {
        guard !finished else { return }
        do {
            try target.file.checkUnchanged()
        } catch {
            return fail(error)
        }
        guard let sha256 = digest.finalHex(size: target.file.size) else {
            if !acknowledged, ServerReport.reportsHash(response) || adoptedSession {
                // Complete before this run sent it all: an earlier run's upload, which the
                // server's hash can confirm is this file (or the interrupted run's own session,
                // for the same unchanged file, sent it all before it died).
                acknowledged = true
                report(
                    .line(
                        adoptedSession
                            ? "the server holds the whole file: the interrupted run had sent it all"
                            : "the server says the upload is already complete (an earlier run?); comparing its hash "
                                + "with the file's", stream: .stderr))
                return perform(
                    digest.catchUp(path: target.file.path, to: target.file.size, queue: queue),
                    recoverFrom: digest.hashedBytes
                ) { _ in self.finish(response) }
            }
            return fail(
                UploadProtocolError(
                    description: "the server says the upload at \(target.url) is complete, but only "
                        + "\(digest.hashedBytes) of \(target.file.size) bytes were sent in this run (an upload "
                        + "left there by an earlier run?); use a new upload URL"))
        }
        acknowledged = true
        if !digest.gcsDigests, lateGCSDigests == nil, ServerReport.reportsGCSDigests(response) {
            return perform(
                GCSDigests.compute(path: target.file.path, size: target.file.size, queue: queue),
                recoverFrom: target.file.size
            ) { digests in
                self.lateGCSDigests = digests
                self.finish(response)
            }
        }
        let md5 = digest.finalMD5Base64(size: target.file.size) ?? lateGCSDigests?.md5
        let crc32c = digest.finalCRC32CBase64(size: target.file.size) ?? lateGCSDigests?.crc32c
        if let problem = ServerReport.mismatch(
            in: response, size: target.file.size, sha256: sha256, md5Base64: md5, crc32cBase64: crc32c)
        {
            return fail(UploadIntegrityError(description: problem))
        }
        finished = true
        report(.bytes(done: target.file.size, total: target.file.size))
        // The offset is recorded at most every 100 ms: the end is always recorded, so the journal
        // shows a finished upload at its size (`flow runs show`).
        recordSession?(driver.uploadURL ?? target.url, target.file.size)
        let location =
            driver.uploadURL ?? response.headers["Location"].map { Self.resolve($0, against: target.url) } ?? target.url
        promise.succeed(
            UploadOutcome(
                response: response, location: location, bytes: target.file.size, sha256: sha256,
                attempts: budget.attempts))
    }

    private func fail(_ error: any Error) {
        guard !finished else { return }
        finished = true
        let message = lostFinalAnswer(error) ?? Self.message(of: error, masker: masker)
        promise.fail(StepError(message, at: target.location))
    }

    /// When the last chunk went out, its answer was lost, and the server no longer knows the
    /// upload (404 or 410 to asking — servers that forget a session once it is finished do this):
    /// the upload may well be complete, so say so and how to check, rather than just "404".
    private func lostFinalAnswer(_ error: any Error) -> String? {
        guard let status = error as? UploadStatusError, status.asking, Self.forgets(status), budget.attempts > 1 else {
            return nil
        }
        return possiblyComplete(
            "the answer to the last chunk was lost, and then \(status.request) got \(status.response.status)")
    }

    /// Says the upload may be complete (after `why`) and what the stored object should be: the
    /// file's size, sha256 and, for GCS, md5Hash. Nil until the whole file has been hashed.
    private func possiblyComplete(_ why: String) -> String? {
        guard let sha256 = digest.finalHex(size: target.file.size) else { return nil }
        let md5 = digest.finalMD5Base64(size: target.file.size).map { ", md5Hash \($0)" } ?? ""
        return masker(
            "\(why): the upload may be complete (servers forget an upload once it is finished), but flow cannot "
                + "confirm it. Check the stored object (for Google Cloud Storage, GET its metadata): it should "
                + "have \(target.file.size) bytes, sha256 \(sha256)\(md5); if it is missing or differs, run "
                + "the upload again with a new upload URL")
    }

    /// Whether the server answered asking as one that no longer knows the upload (404, 410).
    private static func forgets(_ status: UploadStatusError) -> Bool {
        status.asking && [404, 410].contains(status.response.status)
    }

    private func stop() {
        finished = true
        cancelCurrent.withLock { $0 }?()
    }

    /// Why an upload is recovering, in short: an offset mismatch says so rather than quoting the
    /// server's whole answer (after a dropped connection, curl may send a chunk again on a new
    /// connection, which the server then refuses for starting behind what it holds).
    static func recoveryReason(_ error: any Error, masker: SecretMasker) -> String {
        guard let status = error as? UploadStatusError, [409, 416].contains(status.response.status) else {
            return message(of: error, masker: masker)
        }
        let reason = UnexpectedStatus.reasons[status.response.status].map { " \($0)" } ?? ""
        return "\(status.request): the server holds a different offset (\(status.response.status)\(reason))"
    }

    static func message(of error: any Error, masker: SecretMasker) -> String {
        switch error {
        case let file as UploadFileError: return masker(file.message)
        case let step as StepError: return step.message
        default: return masker(String(describing: error))
        }
    }

    /// `reference` (perhaps relative, as a `Location` may be) made absolute against `base`.
    static func resolve(_ reference: String, against base: String) -> String {
        URL(string: reference, relativeTo: URL(string: base))?.absoluteString ?? reference
    }
}

/// Says "now" at most once per interval (the first time at once); owned by whoever owns the value.
private struct Pacer {
    let interval: Duration
    private var last: ContinuousClock.Instant?

    init(every interval: Duration) {
        self.interval = interval
    }

    mutating func due() -> Bool {
        let now = ContinuousClock.now
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}

/// Lets progress through at most ten times a second.
private final class ProgressThrottle: Sendable {
    private let last = LockedBox<ContinuousClock.Instant?>(nil)

    func due() -> Bool {
        let now = ContinuousClock.now
        return last.withLock { last in
            if let previous = last, now - previous < .milliseconds(100) { return false }
            last = now
            return true
        }
    }
}
