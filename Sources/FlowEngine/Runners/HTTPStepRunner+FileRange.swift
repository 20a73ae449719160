import FlowDSL
import FlowHTTP
import Foundation

extension HTTPStepRunner {
    /// The body of `body-file`: the whole file of `size` bytes, or the range `body-file: { path,
    /// offset, length }` names, checked against the file's size before anything is sent (a part
    /// past the end would otherwise be sent short).
    static func fileBody(
        _ path: String, size: Int64, range: HTTPStep.FileRange?, masker: SecretMasker,
        text: (ScalarText) throws(StepError) -> String
    ) throws(StepError) -> HTTPBody {
        guard let range else { return .file(path: path, offset: 0, length: size) }
        func bytes(_ written: ScalarText?, _ key: String) throws(StepError) -> Int64? {
            guard let written else { return nil }
            let value = try text(written).trimmingCharacters(in: .whitespaces)
            // A number computed by an expression may print as `5242880.0`.
            let whole = value.hasSuffix(".0") ? String(value.dropLast(2)) : value
            guard let number = Int64(whole), number >= 0 else {
                throw StepError(
                    "body-file '\(key)' must be a whole number of bytes (0 or more), not '\(masker(value))'",
                    at: written.location)
            }
            return number
        }
        let offset = try bytes(range.offset, "offset") ?? 0
        let length = try bytes(range.length, "length") ?? max(0, size - offset)
        guard offset <= size, length <= size - offset else {
            throw StepError(
                "body-file bytes \(offset)..<\(offset + length) are past the end of '\(masker(path))' (\(size) bytes)",
                at: range.location)
        }
        return .file(path: path, offset: offset, length: length)
    }
}
