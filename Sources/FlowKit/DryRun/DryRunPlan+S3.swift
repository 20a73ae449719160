import FlowDSL
import Foundation

extension DryRunPlan {
    /// "file /a.bin (22020219 bytes): 5 parts × 5MiB, last 1MiB, 3 in flight", from `stat` only; a
    /// part size flow chooses is said so.
    func partPlan(_ upload: UploadStep, _ s3: S3UploadSettings) -> String {
        let path = resolved(renderText(upload.file))
        let flight = "\(s3.partsInFlight) in flight"
        let given = s3.partSizeGiven ? upload.chunkSize : nil
        guard !path.contains("<"), let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            let parts = given.map { "parts of \(SizeSyntax.format($0))" } ?? "part size chosen from the file's size"
            return "file \(path): \(path.contains("<") ? "known at run time" : "not there now"); \(parts), \(flight)"
        }
        let partSize = S3UploadSettings.partSize(forFileSize: size, given: given)
        if let problem = S3UploadSettings.problem(fileSize: size, partSize: partSize) {
            return "file \(path) (\(size) bytes): \(problem)"
        }
        let count = S3UploadSettings.partCount(fileSize: size, partSize: partSize)
        let last = size - Int64(count - 1) * partSize
        var text =
            "file \(path) (\(size) bytes): \(count) part\(count == 1 ? "" : "s") × \(SizeSyntax.format(Int(partSize)))"
        if given == nil { text += " (chosen from the file's size)" }
        if count > 1, last != partSize { text += ", last \(SizeSyntax.format(Int(last)))" }
        return text + ", \(flight)"
    }
}
