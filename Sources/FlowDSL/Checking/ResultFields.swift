/// The fields of `result` (and of `previous`, the last attempt's `result`) for each kind of step,
/// as the engine's runners make them: reading another one is a mistake found before anything
/// runs (`result.jsn`), not a `null` found after.
enum ResultFields {
    /// An `http` step's fields; with `save-to`, `file` and `sha256` too (`body`, `json` and
    /// `base64` stay known: reading them then fails at run time, saying to read the file).
    static let http = [
        "status", "headers", "header_values", "cookies", "version", "url", "duration", "body", "json", "bytes",
        "base64", "request",
    ]
    static let saved = ["file", "sha256"]
    /// An `upload` step's fields: the final response's, and where the upload lives.
    static let upload = [
        "status", "headers", "header_values", "cookies", "version", "url", "duration", "body", "json", "bytes",
        "location", "sha256",
    ]
    static let run = ["exit_code", "stdout", "stderr"]
    static let uses = ["outputs"]
    /// A `call` step's result: what its handler returned.
    static let call = ["outputs"]

    /// The fields `step`'s result has; `nil` when not checked: a group has no `result`, and a
    /// `sleep` (whose `result` is empty) is also what the parser puts in place of a step whose
    /// kind did not parse, whose fields are then unknown.
    static func of(_ step: Step) -> [String]? {
        switch step.kind {
        case .http(let http): http.responseBody.saveTo == nil ? Self.http : Self.http + saved
        case .upload: upload
        case .run: run
        case .uses: uses
        case .call: call
        case .sleep, .group: nil
        }
    }

    /// The problem with reading field `field` of `root` (`result` or `previous`) in `step`, if any.
    static func problem(reading field: String, of root: String, in step: Step) -> (message: String, hint: String)? {
        guard let fields = of(step), !fields.contains(field) else { return nil }
        let kind = step.kind.keyword
        let hint =
            Suggestion.closest(to: field, in: fields).map { "did you mean '\(root).\($0)'?" }
            ?? "a '\(kind)' step's \(root) has \(fields.map { "'\($0)'" }.joined(separator: ", "))"
        return ("'\(root)' of a '\(kind)' step has no field '\(Echo.text(field))'", hint)
    }
}
