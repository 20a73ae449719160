import Dispatch
import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// Runs `upload` steps: evaluates the step into an `UploadTarget`, runs an `UploadSession` over
/// its protocol, and checks `expect` against the final response.
struct UploadStepRunner: Sendable {
    let client: HTTPClient
    let defaults: Defaults
    /// `defaults.http.base-url`, evaluated when the run started.
    let baseURL: String?
    let values: RunValues
    let masker: SecretMasker
    let cleanups: CleanupTracker
    let queue: DispatchQueue
    /// The workflow file's folder and the process environment, for `tls` files (see `TransportPlan`).
    var transportContext = TransportContext(folder: ".", environment: [:])
    /// The workflow file's folder (absolute): a relative `file` is read from it.
    var workflowFolder = FileManager.default.currentDirectoryPath
    /// The journal's record of upload sessions, and an interrupted run's sessions to continue.
    var durability = UploadDurability()

    /// Starts the step; the future's value is the `result` object and the attempts made.
    func run(_ step: Step, _ upload: UploadStep, start: StepStart<StepResult>) -> Future<RunnerOutput> {
        let target: UploadTarget
        do {
            target = try makeTarget(step, upload, start: start)
        } catch {
            return .failed(error, on: queue)
        }
        let (adopted, record) = durability.session(step: step.id, locals: start.locals, target: target)
        if upload.uploadProtocol == .s3 {
            return runS3(step, upload, target: target, start: start, adopted: adopted, record: record)
        }
        let session = UploadSession(
            target: target, client: client, rules: UploadRetryRules(step.retry ?? defaults.retry), masker: masker,
            cleanups: cleanups, queue: queue, report: start.report, adopted: adopted, recordSession: record)
        return session.start().map(on: queue) { outcome in try checked(outcome, upload, start: start) }
    }

    /// Checks the final response of an upload against `expect`; the `result` and attempts.
    func checked(_ outcome: UploadOutcome, _ upload: UploadStep, start: StepStart<StepResult>) throws -> RunnerOutput {
        let result = Self.result(of: outcome)
        guard upload.expect.status.matches(outcome.response.status) else {
            throw StepError(
                "the upload's final response was \(outcome.response.status), expected \(upload.expect.status)",
                at: upload.expect.location ?? upload.location)
        }
        try HTTPStepRunner.check(upload.expect, result: result, values: values, start: start, masker: masker)
        return RunnerOutput(result: result, attempts: outcome.attempts)
    }

    /// `result` for an upload: the final response's status and headers, where the upload lives,
    /// the bytes sent and their sha256 (and the final response's body and JSON, as for `http`).
    static func result(of outcome: UploadOutcome) -> Value {
        guard case .object(var fields) = HTTPStepRunner.result(of: outcome.response) else { return .null }
        fields["location"] = .string(outcome.location)
        fields["bytes"] = .number(Double(outcome.bytes))
        fields["sha256"] = .string(outcome.sha256)
        return .object(fields)
    }

    func makeTarget(_ step: Step, _ upload: UploadStep, start: StepStart<StepResult>) throws(StepError)
        -> UploadTarget
    {
        let texts = [upload.file, upload.url] + upload.headers.map(\.value) + upload.metadata.map(\.value)
        let scope = values.scope(
            for: texts + defaults.http.headers.map(\.value) + upload.transport.texts + defaults.http.transportTexts,
            records: start.records, locals: start.locals)
        let url: String
        do {
            url = try RequestPlan.absoluteURL(
                try upload.url.string(in: scope), baseURL: baseURL, at: upload.url.location)
        } catch {
            throw StepError(masker(error.message), at: error.location)
        }
        let path: String
        do {
            path = try WorkflowPath.resolve(
                upload.file, key: "'upload.file'", in: scope, folder: workflowFolder, allowOutside: step.allowOutside
            ).path
        } catch {
            throw StepError(masker(error.message), at: error.location)
        }
        let file: UploadFile
        do {
            file = try UploadFile(path: path)
        } catch {
            throw StepError(masker(error.message), at: upload.file.location)
        }
        var headers = HTTPHeaders()
        for header in defaults.http.headers { headers.set(header.name, try header.value.string(in: scope)) }
        for header in upload.headers { headers.set(header.name, try header.value.string(in: scope)) }
        // An S3 upload's `aws-sigv4` signs each request instead (`runS3`).
        if let auth = upload.transport.auth ?? defaults.http.transport.auth, !upload.signsWithAWS(auth) {
            headers.set("Authorization", try auth.headerValue { text throws(StepError) in try text.string(in: scope) })
        }
        let transport = try transportContext.plan(
            upload.transport, defaults: defaults.http, scope: scope, masker: masker)
        let secure = url.lowercased().hasPrefix("https://")
        if let problem = transport.unreadableFiles(at: upload.location, environment: secure).first {
            throw StepError(masker(problem.message), at: problem.location)
        }
        var metadata: [(String, String)] = []
        for entry in upload.metadata { metadata.append((entry.name, try entry.value.string(in: scope))) }
        // tus servers (tuspyserver among them) want a file name and type; the step may override both.
        if !metadata.contains(where: { $0.0 == "filetype" }) {
            metadata.insert(("filetype", UploadTarget.mediaType(of: path)), at: 0)
        }
        if !metadata.contains(where: { $0.0 == "filename" }) {
            metadata.insert(("filename", (path as NSString).lastPathComponent), at: 0)
        }
        var target = UploadTarget(
            url: url, file: file, uploadProtocol: upload.uploadProtocol, method: upload.method?.rawValue ?? "PUT",
            chunkSize: Int64(upload.chunkSize), headers: headers, metadata: metadata,
            controlTimeout: defaults.http.timeout ?? .seconds(30), location: upload.location)
        target.transport = transport.options
        target.verifyTLS = !transport.insecure
        return target
    }
}
