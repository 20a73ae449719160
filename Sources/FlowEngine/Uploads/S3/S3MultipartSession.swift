import Dispatch
import FlowDSL
import FlowDigest
import FlowHTTP
import FlowTasks
import Foundation

/// One run of an `upload` step with `protocol: s3`: CreateMultipartUpload (or, continuing an
/// interrupted run, ListParts), UploadPart for each part not yet on the server — up to
/// `partsInFlight` at once, each streamed from the file — then CompleteMultipartUpload with the
/// parts' ETags in order.
///
/// The file is read once in order to hash it (the whole file's SHA-256, each part's SHA-256 for its
/// checksum and signature, its MD5 where needed), up to `partsInFlight` parts ahead of the parts in
/// flight and from the moment CreateMultipartUpload is sent, and read again by libcurl as each part
/// is sent: memory stays at a few 1 MiB buffers per part in flight, whatever the part size (a
/// hashed part waiting to be sent is its digests only).
///
/// Every `var` below is owned by `queue` (a serial queue): every callback hops onto it. The cancel
/// handler reaches the requests in flight and the upload id through their own locks.
final class S3MultipartSession: @unchecked Sendable {
    let target: S3UploadTarget
    private let client: HTTPClient
    private let queue: DispatchQueue
    private let masker: SecretMasker
    private let report: @Sendable (StepProgress) -> Void
    private let cleanups: CleanupTracker
    private let promise: Promise<UploadOutcome>
    /// The interrupted run's session (object URL with its `uploadId`), to continue.
    private let adopted: TransferSession?
    /// Records the upload (URL with `uploadId`) and the bytes of confirmed parts in the journal;
    /// nil without a journal, in which case a cancelled upload is aborted.
    private let recordSession: (@Sendable (String, Int64) -> Void)?
    /// Records the upload's id and completes once it is on disk, before any part is sent.
    private let recordDurably: (@Sendable (String, Int64) -> Future<Void>)?

    /// The upload id once created or adopted (read by the cancel handler).
    private let uploadIDBox = LockedBox<String?>(nil)
    /// Cancels each request in flight, by a key of its own.
    private let inFlightCancels = LockedBox<[Int: @Sendable () -> Void]>([:])

    private struct PartHash {
        let sha256Hex: String
        let sha256Base64: String
        let md5Hex: String?
        let md5Base64: String?
    }

    private var finished = false
    /// Errors since a part was last confirmed, which it bounds, and the attempts made.
    private var budget: RetryBudget
    /// Parts the server listed when continuing an interrupted run, by number.
    private var listed: [Int: S3XML.ListedPart] = [:]
    /// Whether the parts the server holds are known (none for a new upload, the listed ones once
    /// ListParts answered), so parts may be hashed: a part hashed before would not be checked
    /// against the server's. And whether parts may be sent: the upload exists (and is recorded).
    private var mayHash = false
    private var maySend = false
    /// The next part to hash (from 1), whether a hash is under way, and the whole file's digest.
    private var nextToHash = 1
    private var hashing = false
    private var wholeFile = SHA256()
    /// Parts hashed and waiting to be sent, in order.
    private var waiting: [Int] = []
    private var hashes: [Int: PartHash] = [:]
    private var sending: Set<Int> = []
    /// Counts the multipart uploads this session has made (`startOver` makes a new one): the answer
    /// to a part sent for an earlier one, and a retry planned for it, are dropped, never taken for
    /// the new upload's part of the same number.
    private var generation = 0
    /// Confirmed parts: their ETag and SHA-256 (base64), and their bytes in all.
    private var confirmed: [Int: String] = [:]
    private var confirmedBytes: Int64 = 0
    /// Whether a Complete was sent whose answer did not arrive (to read a later NoSuchUpload as done).
    private var completeSent = false
    private var requestKeys = 0
    /// Bytes sent of the parts in flight, for progress (owned by `queue` too).
    private var partProgress: [Int: Int64] = [:]
    private var lastProgress = ContinuousClock.now - .seconds(1)

    init(
        target: S3UploadTarget, client: HTTPClient, rules: UploadRetryRules, masker: SecretMasker,
        cleanups: CleanupTracker, queue: DispatchQueue, report: @escaping @Sendable (StepProgress) -> Void,
        adopted: TransferSession?, recordSession: (@Sendable (String, Int64) -> Void)?,
        recordDurably: (@Sendable (String, Int64) -> Future<Void>)? = nil
    ) {
        self.recordDurably = recordDurably
        self.target = target
        self.client = client
        self.queue = DispatchQueue(label: "flow.upload.s3", target: queue)
        self.masker = masker
        budget = RetryBudget(rules.policy())
        self.report = report
        self.cleanups = cleanups
        self.adopted = adopted
        self.recordSession = recordSession
        promise = Promise(on: queue)
    }

    private var file: UploadFile { target.base.file }
    private var url: String { target.base.url }

    /// Starts the upload; cancelling the future stops it and aborts the multipart upload unless
    /// the journal keeps it for `--resume`.
    func start() -> Future<UploadOutcome> {
        promise.onCancel { [self] in
            if let id = uploadIDBox.withLock({ $0 }) {
                if recordSession != nil {
                    report(
                        .line(
                            "cancelled; the multipart upload \(Echo.text(id)) stays on the server for "
                                + "`flow run --resume` (its parts are billed until it is completed or aborted)",
                            stream: .stderr))
                } else {
                    var abort = makeRequest("DELETE", query: [("uploadId", id)], body: [])
                    abort.timeout = .seconds(5)
                    cleanups.add(client.execute(abort).map(on: queue) { _ in () })
                    report(.line("cancelled; aborting the multipart upload \(Echo.text(id))", stream: .stderr))
                }
            }
            queue.async { self.stop() }
        }
        queue.async { [self] in started() }
        return promise.future
    }

    private func started() {
        report(.attempt(1))
        report(.bytes(done: 0, total: file.size))
        if let adopted, let id = Self.uploadID(of: adopted.target, url: url) {
            guard adopted.fileIdentity == file.identityText else {
                report(
                    .line(
                        "'\(masker(file.path))' changed since the interrupted run (size or modification time); "
                            + "uploading it from the start in a new multipart upload", stream: .stderr))
                abortQuietly(id)
                return create()
            }
            report(
                .line(
                    "continuing the multipart upload \(Echo.text(id)) of the interrupted run; asking the server "
                        + "which parts it holds (ListParts)", stream: .stderr))
            uploadIDBox.withLock { $0 = id }
            return listParts(id: id, after: 0, into: [])
        }
        create()
    }

    // MARK: Requests

    /// A request to the object's URL with `query` (signed, with the step's headers).
    private func makeRequest(_ method: String, query: [(String, String)], body: [UInt8]) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, query: query, body: body.isEmpty ? .empty : .bytes(body))
        request.timeout = target.base.controlTimeout
        request = target.base.withStepHeaders(request)
        sign(&request, payloadSHA256: SHA256.hash(data: body).hexString)
        return request
    }

    private func sign(_ request: inout HTTPRequest, payloadSHA256: String) {
        guard let signer = target.signer else { return }
        do {
            try signer(&request, payloadSHA256)
        } catch {
            // SigV4 refuses only a URL that is not absolute http(s), which the runner checked before
            // the upload started; the server's 403 would say the rest.
        }
    }

    /// Sends `request`, its cancel kept until it ends; the result on `queue`.
    private func send(
        _ request: HTTPRequest, progress: (@Sendable (HTTPProgress) -> Void)? = nil,
        then body: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void
    ) {
        requestKeys += 1
        let key = requestKeys
        let future = client.execute(request, progress: progress)
        inFlightCancels.withLock { $0[key] = { future.cancel() } }
        future.whenComplete(on: queue) { [self] result in
            _ = inFlightCancels.withLock { $0.removeValue(forKey: key) }
            guard !finished else { return }
            body(result)
        }
    }

    /// What a request was, for messages: `POST http://…/key?uploads`.
    private func describe(_ method: String, _ what: String) -> String {
        masker("\(method) \(url) (\(what))")
    }

    /// A status error for `response` (2xx expected), with S3's `<Error>` code and message when it
    /// sent one (escaped).
    private func statusError(_ response: HTTPResponse, _ what: String) -> UploadStatusError {
        UploadStatusError(request: what, expected: "200", response: response, masker: masker)
    }

    // MARK: Create, list

    private func create() {
        // A new upload holds no part: parts are hashed while Create is on its way (over a slow link
        // the first parts are then ready to go when the answer arrives).
        mayHash = true
        maySend = false
        pump()
        var headers: [(String, String)] = [("Content-Type", target.contentType)]
        if let storageClass = target.storageClass { headers.append(("x-amz-storage-class", storageClass)) }
        if target.checksum == .sha256 { headers.append(("x-amz-checksum-algorithm", "SHA256")) }
        for (name, value) in target.metadata { headers.append(("x-amz-meta-\(name)", value)) }
        var create = HTTPRequest(method: "POST", url: url, query: [("uploads", "")])
        create.timeout = target.base.controlTimeout
        for (name, value) in headers { create.headers.set(name, value) }
        create = target.base.withStepHeaders(create)
        sign(&create, payloadSHA256: SHA256.hash(data: [UInt8]()).hexString)
        let what = describe("POST", "CreateMultipartUpload")
        send(create) { [self] result in
            switch result {
            case .success(let response) where response.status == 200:
                guard S3XML.error(in: response.body) == nil, let id = S3XML.uploadID(in: response.body) else {
                    return fail(
                        UploadProtocolError(
                            description: "\(what): the answer has no UploadId: "
                                + UnexpectedStatus.got(response, masker: masker)))
                }
                uploadIDBox.withLock { $0 = id }
                guard let recordDurably else {
                    record(id)
                    maySend = true
                    return pump()
                }
                // On disk before the first part goes: a kill from here on leaves an upload that
                // `--resume` finds, so no part the server holds is ever sent again.
                recordDurably(HTTPRequest.url(url, query: [("uploadId", id)]), 0).whenComplete(on: queue) {
                    [self] result in
                    guard !finished else { return }
                    if case .failure(let error) = result { return fail(error) }
                    maySend = true
                    pump()
                }
            case .success(let response):
                retry(statusError(response, what)) { self.create() }
            case .failure(let error):
                retry(error) { self.create() }
            }
        }
    }

    /// ListParts from `marker` on (a page is at most 1,000 parts), then checks them as the file is hashed.
    private func listParts(id: String, after marker: Int, into parts: [S3XML.ListedPart]) {
        var query = [("uploadId", id)]
        if marker > 0 { query.append(("part-number-marker", String(marker))) }
        let list = makeRequest("GET", query: query, body: [])
        let what = describe("GET", "ListParts")
        send(list) { [self] result in
            switch result {
            case .success(let response) where response.status == 200:
                guard let page = S3XML.partsPage(in: response.body) else {
                    return fail(
                        UploadProtocolError(
                            description: "\(what): the answer is not a list of parts: "
                                + UnexpectedStatus.got(response, masker: masker)))
                }
                if let next = page.next, next > marker {
                    return listParts(id: id, after: next, into: parts + page.parts)
                }
                adopt(id: id, parts: parts + page.parts)
            case .success(let response) where response.status == 404:
                report(
                    .line(
                        "the server no longer knows the multipart upload \(Echo.text(id)) (\(S3XML.error(in: response.body).map { Echo.text($0.code) } ?? "404")); "
                            + "uploading the file from the start", stream: .stderr))
                uploadIDBox.withLock { $0 = nil }
                create()
            case .success(let response):
                retry(statusError(response, what)) { self.listParts(id: id, after: marker, into: parts) }
            case .failure(let error):
                retry(error) { self.listParts(id: id, after: marker, into: parts) }
            }
        }
    }

    private func adopt(id: String, parts: [S3XML.ListedPart]) {
        for part in parts where part.number >= 1 && part.number <= target.partCount {
            listed[part.number] = part
        }
        let bytes = listed.values.reduce(Int64(0)) { $0 + $1.size }
        report(
            .line(
                "the server holds \(listed.count) of \(target.partCount) parts (\(bytes) of \(file.size) bytes); "
                    + "checking each against the file, then sending the rest", stream: .stderr))
        mayHash = true
        maySend = true
        pump()
    }

    // MARK: The loop

    /// Sends waiting parts while fewer than `partsInFlight` are in flight, and hashes the next part
    /// while fewer than `partsInFlight` hashed parts wait; completes once every part is confirmed.
    ///
    /// Hashing a whole window ahead (not one part) matters when several answers arrive together, as
    /// they do from a server that works on its requests side by side: every freed slot gets its
    /// next part at once instead of one hash (a few ms for 8 MiB) after the other.
    private func pump() {
        guard !finished else { return }
        let id = maySend ? uploadIDBox.withLock({ $0 }) : nil
        if let id {
            while sending.count < target.partsInFlight, !waiting.isEmpty {
                sendPart(waiting.removeFirst(), id: id)
            }
        }
        if mayHash, !hashing, nextToHash <= target.partCount, waiting.count < max(1, target.partsInFlight) {
            hashPart(nextToHash)
        }
        if let id, confirmed.count == target.partCount, !hashing, sending.isEmpty {
            complete(id: id)
        }
    }

    /// Reads part `number` from the file in order, adding it to the whole file's digest.
    private func hashPart(_ number: Int) {
        hashing = true
        let (offset, length) = target.range(of: number)
        let wantsMD5 = target.checksum == .md5 || listed[number] != nil
        let part = LockedBox((SHA256(), Insecure.MD5()))
        let whole = LockedBox(wholeFile)
        let read =
            length == 0
            ? Future<Void>.succeeded((), on: queue)
            : FileRangeReader.read(path: file.path, offset: offset, length: length, queue: queue) { _, bytes in
                whole.withLock { $0.update(bufferPointer: bytes) }
                part.withLock { hashers in
                    hashers.0.update(bufferPointer: bytes)
                    if wantsMD5 { hashers.1.update(bufferPointer: bytes) }
                }
            }
        read.whenComplete(on: queue) { [self] result in
            guard !finished else { return }
            hashing = false
            if case .failure(let error) = result { return fail(error) }
            do {
                try file.checkUnchanged()
            } catch {
                return fail(error)
            }
            wholeFile = whole.withLock { $0 }
            let (sha, md5) = part.withLock { $0 }
            let shaDigest = sha.finalize()
            let md5Digest = wantsMD5 ? md5.finalize() : nil
            let hash = PartHash(
                sha256Hex: shaDigest.hexString, sha256Base64: Data(shaDigest.bytes).base64EncodedString(),
                md5Hex: md5Digest?.hexString, md5Base64: md5Digest.map { Data($0.bytes).base64EncodedString() })
            nextToHash = number + 1
            hashes[number] = hash
            if let listedPart = listed[number] {
                if let problem = mismatch(listedPart, hash: hash, length: length) {
                    return startOver(because: problem)
                }
                confirm(number, etag: listedPart.etag, bytes: length)
            } else {
                waiting.append(number)
            }
            pump()
        }
    }

    /// Why the part the server lists is not this file's part `number`, or nil.
    private func mismatch(_ part: S3XML.ListedPart, hash: PartHash, length: Int64) -> String? {
        if part.size != length {
            return "the server's part \(part.number) has \(part.size) bytes, the file's has \(length)"
        }
        if let sha256 = part.sha256, sha256 != hash.sha256Base64 {
            return "the server's part \(part.number) has another SHA-256 than the file's"
        }
        if Self.isMD5(part.etag), let md5 = hash.md5Hex, part.etag.lowercased() != md5 {
            return "the server's part \(part.number) has another MD5 (ETag) than the file's"
        }
        return nil
    }

    /// A part the server listed differs from the file: a new upload from the start.
    private func startOver(because problem: String) {
        report(
            .line(
                "'\(masker(file.path))' is not what the interrupted run uploaded (\(Echo.text(problem))); "
                    + "uploading it from the start in a new multipart upload", stream: .stderr))
        if let id = uploadIDBox.withLock({ $0 }) { abortQuietly(id) }
        uploadIDBox.withLock { $0 = nil }
        // Parts still on their way were sent for the abandoned upload.
        generation += 1
        cancelAll()
        sending = []
        partProgress = [:]
        mayHash = false
        maySend = false
        listed = [:]
        confirmed = [:]
        confirmedBytes = 0
        hashes = [:]
        waiting = []
        nextToHash = 1
        wholeFile = SHA256()
        create()
    }

    private func sendPart(_ number: Int, id: String) {
        guard let hash = hashes[number] else { return }
        sending.insert(number)
        let (offset, length) = target.range(of: number)
        var part = HTTPRequest(
            method: "PUT", url: url, query: [("partNumber", String(number)), ("uploadId", id)],
            body: .file(path: file.path, offset: offset, length: length))
        // libcurl must not send the part again by itself on a new connection: a failed part is
        // counted and sent again here, within the retry budget.
        part.mayResendBody = false
        switch target.checksum {
        case .sha256:
            part.headers.set("x-amz-checksum-sha256", hash.sha256Base64)
            part.headers.set("x-amz-sdk-checksum-algorithm", "SHA256")
        case .md5:
            if let md5 = hash.md5Base64 { part.headers.set("Content-MD5", md5) }
        }
        part = target.base.withStepHeaders(part)
        sign(&part, payloadSHA256: hash.sha256Hex)
        let what = describe(
            "PUT", "UploadPart \(number) of \(target.partCount), bytes \(offset)–\(offset + length - 1)")
        let progress: @Sendable (HTTPProgress) -> Void = { [self] sent in
            queue.async { self.partSent(number, bytes: sent.bytesSent) }
        }
        let sentFor = generation
        send(part, progress: progress) { [self] result in
            guard generation == sentFor else { return }
            sending.remove(number)
            partProgress[number] = nil
            switch result {
            case .success(let response) where response.status == 200:
                do {
                    let etag = try checkPart(response, hash: hash, what: what)
                    confirm(number, etag: etag, bytes: length)
                    budget.progressed()
                    pump()
                } catch {
                    retry(error) { self.resend(number) }
                }
            case .success(let response):
                retry(statusError(response, what)) { self.resend(number) }
            case .failure(let error):
                retry(error) { self.resend(number) }
            }
        }
    }

    private func resend(_ number: Int) {
        waiting.insert(number, at: 0)
        pump()
    }

    /// The part's ETag, once the answer's checksum (or ETag, for MD5) matches the part's.
    private func checkPart(_ response: HTTPResponse, hash: PartHash, what: String) throws -> String {
        guard let etag = response.headers["ETag"].map(S3XML.unquoted), !etag.isEmpty else {
            throw UploadProtocolError(description: "\(what): the answer has no ETag")
        }
        if let sha256 = response.headers["x-amz-checksum-sha256"], sha256 != hash.sha256Base64 {
            throw UploadProtocolError(
                description: "\(what): the server's x-amz-checksum-sha256 (\(Echo.text(sha256))) is not the part's "
                    + "(\(hash.sha256Base64))")
        }
        if target.checksum == .md5, Self.isMD5(etag), let md5 = hash.md5Hex, etag.lowercased() != md5 {
            throw UploadProtocolError(
                description: "\(what): the server's ETag (\(Echo.text(etag))) is not the part's MD5 (\(md5))")
        }
        return etag
    }

    private func confirm(_ number: Int, etag: String, bytes: Int64) {
        confirmed[number] = etag
        confirmedBytes += bytes
        report(.bytes(done: confirmedBytes, total: file.size))
        if let id = uploadIDBox.withLock({ $0 }) { record(id) }
    }

    private func partSent(_ number: Int, bytes: Int64) {
        guard !finished, sending.contains(number) else { return }
        partProgress[number] = bytes
        let now = ContinuousClock.now
        guard now - lastProgress >= .milliseconds(100) else { return }
        lastProgress = now
        report(.bytes(done: confirmedBytes + partProgress.values.reduce(0, +), total: file.size))
    }

    private func record(_ id: String) {
        recordSession?(HTTPRequest.url(url, query: [("uploadId", id)]), confirmedBytes)
    }

    // MARK: Complete

    private func complete(id: String) {
        guard !finished else { return }
        let parts = (1...target.partCount).map { number in
            (
                number: number, etag: confirmed[number] ?? "",
                sha256: target.checksum == .sha256 ? hashes[number]?.sha256Base64 : nil
            )
        }
        var request = makeRequest("POST", query: [("uploadId", id)], body: S3XML.completeBody(parts))
        request.headers.set("Content-Type", "application/xml")
        let what = describe("POST", "CompleteMultipartUpload of \(target.partCount) parts")
        let wasSent = completeSent
        completeSent = true
        send(request) { [self] result in
            switch result {
            case .success(let response) where response.status == 200:
                // S3 may answer 200 and then an <Error> (it sends spaces while it assembles the parts).
                if let error = S3XML.error(in: response.body) {
                    let problem = UploadStatusError(
                        request: what, expected: "a CompleteMultipartUploadResult", response: response, masker: masker)
                    if ["InternalError", "SlowDown", "ServiceUnavailable"].contains(error.code) {
                        return retry(problem) { self.complete(id: id) }
                    }
                    return fail(
                        UploadProtocolError(
                            description: "\(what): the server answered 200 with an error: \(Echo.text(error.code)): "
                                + Echo.text(masker(error.message))))
                }
                guard S3XML.completeETag(in: response.body) != nil else {
                    return fail(
                        UploadProtocolError(
                            description: "\(what): the answer is not a CompleteMultipartUploadResult: "
                                + UnexpectedStatus.got(response, masker: masker)))
                }
                succeed(response)
            case .success(let response)
            where response.status == 404 && (wasSent || budget.attempts > 1)
                && S3XML.error(in: response.body)?.code == "NoSuchUpload":
                // An earlier Complete whose answer was lost may have finished the upload: the object
                // tells (its size and part count).
                checkObject(after: response, what: what)
            case .success(let response):
                retry(statusError(response, what)) { self.complete(id: id) }
            case .failure(let error):
                retry(error) { self.complete(id: id) }
            }
        }
    }

    /// After a lost Complete answer and NoSuchUpload: HEAD the object; done when it has the file's
    /// size and as many parts (`ETag` ending `-N`).
    private func checkObject(after noSuchUpload: HTTPResponse, what: String) {
        let head = makeRequest("HEAD", query: [], body: [])
        send(head) { [self] result in
            if case .success(let response) = result, response.status == 200,
                response.headers["Content-Length"] == String(file.size),
                let etag = response.headers["ETag"].map(S3XML.unquoted),
                etag.hasSuffix("-\(target.partCount)")
            {
                report(
                    .line(
                        "the answer to CompleteMultipartUpload was lost; the object now has the file's size and "
                            + "\(target.partCount) parts, so the upload was completed", stream: .stderr))
                return succeed(response)
            }
            fail(
                UploadProtocolError(
                    description: "\(what): the server no longer knows the upload (NoSuchUpload) and the object does "
                        + "not have the file's size and parts; upload the file again"))
        }
    }

    private func succeed(_ response: HTTPResponse) {
        guard !finished else { return }
        do {
            try file.checkUnchanged()
        } catch {
            return fail(error)
        }
        finished = true
        report(.bytes(done: file.size, total: file.size))
        if let id = uploadIDBox.withLock({ $0 }) {
            recordSession?(HTTPRequest.url(url, query: [("uploadId", id)]), file.size)
        }
        promise.succeed(
            UploadOutcome(
                response: response, location: url, bytes: file.size, sha256: wholeFile.finalize().hexString,
                attempts: budget.attempts))
    }

    // MARK: Errors

    /// After an error: give up when it is final or the budget is spent; else wait and run `again`.
    private func retry(_ error: any Error, again: @escaping @Sendable () -> Void) {
        guard !finished else { return }
        let reason = { [masker] in UploadSession.message(of: error, masker: masker) }
        switch budget.spend(on: error, reason: reason, report: report) {
        case .cancelled: return
        case .final: return fail(error)
        case .spent:
            return fail(
                UploadProtocolError(
                    description: "\(reason()) (gave up after \(budget.failures) attempts without a part confirmed; "
                        + "\(confirmed.count) of \(target.partCount) parts are on the server)"))
        case .retry(let wait):
            report(.line("\(reason()); sending it again", stream: .stderr))
            let plannedFor = generation
            Future<Void>.delay(wait, on: queue).whenComplete(on: queue) { [self] _ in
                guard !finished, generation == plannedFor else { return }
                again()
            }
        }
    }

    private func fail(_ error: any Error) {
        guard !finished else { return }
        finished = true
        cancelAll()
        promise.fail(StepError(UploadSession.message(of: error, masker: masker), at: target.base.location))
    }

    private func stop() {
        finished = true
        cancelAll()
    }

    private func cancelAll() {
        for cancel in inFlightCancels.withLock({ cancels in
            defer { cancels = [:] }; return Array(cancels.values)
        }) {
            cancel()
        }
    }

    /// Aborts an upload flow leaves behind (a changed file's), without waiting or failing.
    private func abortQuietly(_ id: String) {
        var abort = makeRequest("DELETE", query: [("uploadId", id)], body: [])
        abort.timeout = .seconds(5)
        cleanups.add(client.execute(abort).map(on: queue) { _ in () })
    }

    // MARK: Helpers

    /// The `uploadId` of a recorded session's URL, when it is an upload of `url`.
    static func uploadID(of recorded: String, url: String) -> String? {
        let prefix = HTTPRequest.url(url, query: [("uploadId", "")])
        guard recorded.hasPrefix(prefix), let components = URLComponents(string: recorded) else { return nil }
        return components.queryItems?.last(where: { $0.name == "uploadId" })?.value.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether an ETag is a plain MD5 (32 hex digits), as S3 gives a part without SSE-KMS.
    static func isMD5(_ etag: String) -> Bool {
        etag.utf8.count == 32
            && etag.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) }
    }
}
