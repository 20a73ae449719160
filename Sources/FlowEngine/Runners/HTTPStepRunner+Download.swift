import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

extension HTTPStepRunner {
    /// The step's `save-to` download, its path evaluated; `nil` without `save-to`.
    func makeDownload(_ step: Step, _ http: HTTPStep, start: StepStart<StepResult>) throws(StepError)
        -> HTTPDownload?
    {
        guard let saveTo = http.responseBody.saveTo else { return nil }
        let scope = values.scope(for: [saveTo], records: start.records, locals: start.locals)
        let resolved: (value: String, path: String)
        do {
            resolved = try WorkflowPath.resolve(
                saveTo, key: "'save-to'", in: scope, folder: workflowFolder, allowOutside: step.allowOutside)
        } catch {
            throw StepError(masker(error.message), at: error.location)
        }
        guard !resolved.value.isEmpty else { throw StepError("'save-to' is empty", at: saveTo.location) }
        do {
            return try HTTPDownload(
                path: resolved.path, folder: workflowFolder, resume: http.responseBody.resume,
                maxSize: http.responseBody.maxSize)
        } catch {
            throw StepError(masker(error.message), at: saveTo.location)
        }
    }

    /// Sends one attempt: as is without a download; else written to the partial file, from where
    /// it stopped when resuming. A `416` to a resumed request (the partial file is longer than the
    /// resource now is) starts over from zero once, within the same attempt. `recording` keeps the
    /// download's session in the journal as the partial file grows.
    func send(
        _ request: HTTPRequest, _ download: HTTPDownload?, recording: DownloadRecording? = nil, restarted: Bool = false
    ) -> Future<HTTPResponse> {
        guard let download else { return client.execute(request) }
        return download.prepare(queue: queue).flatMap(on: queue) { prepared in
            var sent = request
            sent.saveTo = prepared.target
            if let recording {
                recording.record(prepared.target.resumeFrom, force: true)
                let hash = prepared.target.observer
                sent.saveTo?.observer = { offset, bytes in
                    hash?(offset, bytes)
                    recording.record(offset + Int64(bytes.count))
                }
            }
            if prepared.target.resumeFrom > 0, let validator = prepared.validator {
                sent.headers.set("If-Range", validator)
            }
            return client.execute(sent).flatMap(on: queue) { response in
                if response.status == 416, prepared.target.resumeFrom > 0, !restarted {
                    download.restart()
                    return send(request, download, recording: recording, restarted: true)
                }
                guard let saved = response.saved else { return Future.succeeded(response, on: queue) }
                recording?.record(saved.offset + saved.count, force: true)
                // The file's sha256 trails curl's writes (on another core): the result waits for it.
                return download.hashed(queue: queue).map(on: queue) { _ in response }
            }
        }
    }

    /// `result` of a response; for a body saved by `save-to`, once the file is in place.
    static func result(
        of response: HTTPResponse, download: HTTPDownload?, base64: Bool, at location: SourceLocation
    ) throws(StepError) -> Value {
        guard let download, let saved = response.saved else { return result(of: response, base64: base64) }
        let complete: (bytes: Int64, sha256: String)
        do {
            complete = try download.complete(saved)
        } catch {
            throw StepError(error.message, at: location)
        }
        guard case .object(var fields) = result(of: response) else { return .null }
        for key in ["body", "json", "bytes", "base64"] { fields[key] = nil }
        fields.merge(
            ResponseBodyFields.fields(savedTo: download.finalPath, bytes: complete.bytes, sha256: complete.sha256)
        ) {
            $1
        }
        return .object(fields)
    }

    /// `max-body` of the step, else of `defaults.http`, else 64 MiB.
    func maxBody(_ http: HTTPStep) -> Int {
        http.responseBody.maxBody ?? defaults.http.maxBody ?? ResponseBodyOptions.defaultMaxBody
    }

    /// The message of a `save-to` file over `max-size`, naming the key that changes it.
    func fileTooLarge(_ error: HTTPError, http: HTTPStep) -> String {
        let limit = http.responseBody.maxSize ?? 0
        return "the response body of \(error.url) is larger than max-size (\(SizeSyntax.format(limit)), "
            + "\(limit) bytes), the limit of the file 'save-to' writes: raise 'max-size' on the step if the "
            + "server is trusted to send that much"
    }

    /// The message of a body over `max-body`, naming the keys that change it.
    func bodyTooLarge(_ error: HTTPError, http: HTTPStep) -> String {
        let limit = maxBody(http)
        return "the response body of \(error.url) is larger than max-body (\(SizeSyntax.format(limit)), "
            + "\(limit) bytes; a compressed body counts decoded): raise 'max-body' on the step or in "
            + "defaults.http, or stream the body to a file with 'save-to'"
    }
}
