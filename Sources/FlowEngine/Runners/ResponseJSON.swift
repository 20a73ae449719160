import FlowDSL

/// `result.json` of an `http` or `upload` step: the response body parsed as JSON.
///
/// A body that is not JSON has no `json` field, and reading `result.json` then fails the step
/// with the parse error and its offset, as `fromJSON()` does: a silent `null` would let the step
/// succeed and hand its dependents empty values. A step that never reads `result.json` is not
/// affected. An empty body (a 204, a HEAD) is no JSON document at all and reads as `null`.
enum ResponseJSON {
    /// The `json` field for a body: its value, `null` when the body is empty, `nil` when it is not JSON.
    static func value(of body: String) -> Value? {
        guard !body.isEmpty else { return .null }
        return try? Value(jsonText: body)
    }

    /// Why reading `json` of `result` must fail: `result` holds a response `body` but no `json`.
    static func problem(in result: Value?) -> String? {
        guard case .object(let fields)? = result, fields["json"] == nil, case .string(let body)? = fields["body"]
        else { return nil }
        do {
            _ = try Value(jsonText: body)
            return nil
        } catch let error as JSONSyntaxError {
            return "the response body is not valid JSON: \(error)"
        } catch {
            return "the response body is not valid JSON"
        }
    }
}
