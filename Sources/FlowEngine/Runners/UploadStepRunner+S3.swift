import FlowAWS
import FlowDSL
import FlowTasks
import Foundation

extension UploadStepRunner {
    /// Runs an `upload` with `protocol: s3`: evaluates its S3 keys, plans the parts from the file's
    /// size, and runs an `S3MultipartSession`.
    func runS3(
        _ step: Step, _ upload: UploadStep, target: UploadTarget, start: StepStart<StepResult>,
        adopted: TransferSession?, record: (@Sendable (String, Int64) -> Void)?
    ) -> Future<RunnerOutput> {
        let s3Target: S3UploadTarget
        do {
            s3Target = try makeS3Target(step, upload, base: target, start: start)
        } catch {
            return .failed(error, on: queue)
        }
        let session = S3MultipartSession(
            target: s3Target, client: client, rules: UploadRetryRules(step.retry ?? defaults.retry), masker: masker,
            cleanups: cleanups, queue: queue, report: start.report, adopted: adopted, recordSession: record,
            recordDurably: durability.durableRecord(step: step.id, locals: start.locals, target: target))
        return session.start().map(on: queue) { outcome in try checked(outcome, upload, start: start) }
    }

    private func makeS3Target(
        _ step: Step, _ upload: UploadStep, base: UploadTarget, start: StepStart<StepResult>
    ) throws(StepError) -> S3UploadTarget {
        let settings = upload.s3 ?? S3UploadSettings()
        var aws: AWSSigV4Auth?
        if let auth = upload.transport.auth ?? defaults.http.transport.auth, case .awsSigV4(let given) = auth {
            aws = given
        }
        let texts =
            [settings.region, settings.storageClass, settings.contentType].compactMap { $0 } + (aws?.texts ?? [])
        let scope = values.scope(for: texts, records: start.records, locals: start.locals)
        let partSize = S3UploadSettings.partSize(
            forFileSize: base.file.size, given: settings.partSizeGiven ? upload.chunkSize : nil)
        if let problem = S3UploadSettings.problem(fileSize: base.file.size, partSize: partSize) {
            throw StepError(problem, at: upload.location)
        }
        guard let components = URLComponents(string: base.url), components.path.count > 1 else {
            throw StepError(
                "an S3 upload's url is the object's: http(s)://HOST/BUCKET/KEY or http(s)://BUCKET.HOST/KEY, not "
                    + masker(base.url), at: upload.url.location)
        }
        let text = { (text: ScalarText) throws(StepError) -> String in try text.string(in: scope) }
        let credentials: AWSCredentials?
        if let aws {
            // `auth: { aws-sigv4 }`: its keys (usually `secrets.*`), else the environment's or a profile's.
            let service = try text(aws.service)
            guard service == "s3" else {
                throw StepError(
                    "an S3 upload is signed for the service 's3', not '\(masker(service))'", at: aws.location)
            }
            credentials = try AWSRequestSigning.credentials(
                aws, environment: transportContext.environment, masker: masker, text: text
            ).credentials
        } else {
            do {
                credentials = try S3Signing.credentials(transportContext.environment)
            } catch {
                throw StepError(error.message, at: upload.location)
            }
        }
        // Masked wherever they came from (a profile's keys are not secrets flow was given).
        for value in [credentials?.accessKeyID, credentials?.secretAccessKey, credentials?.sessionToken] {
            if let value, !value.isEmpty { masker.add(value) }
        }
        let region = S3UploadTarget.region(
            given: try (settings.region ?? aws?.region).map(text), url: base.url,
            environment: transportContext.environment)
        return S3UploadTarget(
            base: base, region: region, partSize: partSize,
            partCount: S3UploadSettings.partCount(fileSize: base.file.size, partSize: partSize),
            partsInFlight: settings.partsInFlight,
            storageClass: try settings.storageClass.map { text throws(StepError) in try text.string(in: scope) },
            contentType: try settings.contentType.map { text throws(StepError) in try text.string(in: scope) }
                ?? UploadTarget.mediaType(of: base.file.path),
            checksum: settings.checksum,
            metadata: base.metadata.filter { entry in upload.metadata.contains { $0.name == entry.0 } },
            signer: credentials.map { S3Signing.signer(credentials: $0, region: region) })
    }
}

extension UploadStep {
    /// Whether `auth` (the step's or `defaults.http`'s) signs this upload's requests with AWS
    /// Signature Version 4 rather than giving an `Authorization` header: `aws-sigv4` on `protocol: s3`.
    func signsWithAWS(_ auth: HTTPAuth) -> Bool {
        guard uploadProtocol == .s3, case .awsSigV4 = auth else { return false }
        return true
    }
}
