import FlowDSL

/// JSON text for the command line's machine output, written by the one JSON string writer the
/// engine's reports use (`JSONWriter`). Package only: an app has its own JSON encoder.
package enum JSONText {
    /// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        Value.string(text).jsonText
    }

    /// `text` as a JSON string literal, appended to `bytes` (UTF-8).
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        JSONWriter.appendString(text, to: &bytes)
    }
}
