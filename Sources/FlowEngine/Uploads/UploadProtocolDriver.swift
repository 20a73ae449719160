import FlowHTTP
import FlowTasks

/// Where the server stands after a chunk, or when asked.
enum ServerAnswer: Sendable {
    /// It holds the first `offset` bytes and expects more.
    case offset(Int64, HTTPResponse)
    /// It holds the whole file; the response is the upload's final one.
    case complete(HTTPResponse)
}

/// The requests of one upload protocol. The session (`UploadSession`) drives them: prepare, then
/// chunks, asking the server where it stands after any error.
protocol UploadProtocolDriver: Sendable {
    /// Whatever comes before the first chunk (tus: `OPTIONS`, then `POST` to create the upload).
    func prepare(_ session: UploadSession) -> Future<Void>
    /// Sends `length` bytes of the file from `offset`.
    func send(_ session: UploadSession, offset: Int64, length: Int64) -> Future<ServerAnswer>
    /// Reads the `length` bytes at `offset` (the next chunk) into memory while the chunk before
    /// is in flight, for `send` to use when the server's answer asks for them. On the HTTP
    /// client's thread, just after the chunk before went out.
    func readAhead(_ session: UploadSession, offset: Int64, length: Int64)
    /// Asks how much of the file the server holds.
    func ask(_ session: UploadSession) -> Future<ServerAnswer>
    /// What to do when the step is cancelled mid-way (tus termination deletes the upload): the
    /// request to finish before the run ends and a line saying what it does; nil when nothing.
    func abandon(_ session: UploadSession) -> (Future<Void>, String)?
    /// The upload's own URL once known (the tus `Location`).
    var uploadURL: String? { get }
    /// Takes over an earlier run's upload at `url` (its tus `Location`) instead of creating one.
    func adopt(_ url: String)
}

extension UploadProtocolDriver {
    /// Content-Range uploads go to the step's URL: nothing to take over.
    func adopt(_ url: String) {}
}

/// A response with a status the protocol does not allow at that point.
struct UploadStatusError: Error, CustomStringConvertible {
    /// What was being done, such as `PATCH http://… (bytes 0–99 of 1000)`.
    let request: String
    /// The statuses that were acceptable, in words.
    let expected: String
    let response: HTTPResponse
    let masker: SecretMasker
    /// Whether the request asked where the upload stands (`HEAD`, `bytes */total`).
    var asking = false

    var description: String {
        masker("\(request): expected \(expected), " + UnexpectedStatus.got(response, masker: masker))
    }
}

/// The server said something the protocol does not allow (a missing or impossible offset).
struct UploadProtocolError: Error, CustomStringConvertible {
    let description: String
}

/// The server says it holds something other than the file: final, since sending again cannot
/// change what it stored.
struct UploadIntegrityError: Error, CustomStringConvertible {
    let description: String
}
