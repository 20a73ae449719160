import FlowDSL
import Foundation

/// The body fields of an HTTP `result`: `body` and `json` when the body is UTF-8 text, `bytes`
/// always, `base64` when the step reads it; for a body saved with `save-to`, `file`, `bytes` and
/// `sha256` instead.
///
/// Bytes are never altered: a body that is not UTF-8 has no `body` or `json`, and reading them
/// fails saying why and what to use instead, rather than giving text with replacement characters.
enum ResponseBodyFields {
    /// The fields of a body held in memory. `base64` costs a third more memory than the body and
    /// stays with the step's result for the run, so it is made only for steps that read it.
    static func fields(of body: [UInt8], base64: Bool) -> [String: Value] {
        var fields: [String: Value] = ["bytes": .number(Double(body.count))]
        if let text = String(validating: body, as: UTF8.self) {
            fields["body"] = .string(text)
            // Left out when the body is not JSON, so that reading it fails (see `ResponseJSON`).
            fields["json"] = ResponseJSON.value(of: text)
        }
        if base64 { fields["base64"] = .string(Data(body).base64EncodedString()) }
        return fields
    }

    /// The fields of a body written to `file` by `save-to`.
    static func fields(savedTo file: String, bytes: Int64, sha256: String) -> [String: Value] {
        ["file": .string(file), "bytes": .number(Double(bytes)), "sha256": .string(sha256)]
    }

    /// Whether `step` reads `result.base64` (in `expect.assert` or `outputs`).
    static func readsBase64(_ step: Step, _ http: HTTPStep) -> Bool {
        let texts = http.expect.assertions.map(\.text) + step.outputs.map(\.value.text)
        return texts.contains { $0.contains("base64") }
    }

    /// Why reading `key` of `result` must fail, or `nil` when it reads normally.
    static func problem(reading key: String, in result: Value?) -> String? {
        guard ["body", "json", "base64"].contains(key), case .object(let fields)? = result else { return nil }
        if case .string(let file)? = fields["file"], fields["body"] == nil {
            return "the response body was written to '\(file)' by 'save-to' and is not held in memory; "
                + "read the file (result.file), or check result.bytes and result.sha256"
        }
        if key != "base64", fields["body"] == nil, case .number(let bytes, _)? = fields["bytes"] {
            return "the response body is binary (\(Int(bytes)) bytes that are not UTF-8 text), so it has no "
                + "text; write it to a file with 'save-to', or read result.base64 (its bytes base64-encoded)"
        }
        return key == "json" ? ResponseJSON.problem(in: result) : nil
    }
}
