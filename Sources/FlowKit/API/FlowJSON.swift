import FlowDSL

/// JSON string literals exactly as flow writes them in its reports and its JSON log (one writer
/// for all of them), for a program whose own JSON lines sit beside flow's (`flow run
/// --log-format json` writes its lines with it).
///
/// ```swift
/// print(#"{"event":"note","text":"# + FlowJSON.quoted(text) + "}")
/// ```
public enum FlowJSON {
    /// `text` as a JSON string literal: quoted, with quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        Value.string(text).jsonText
    }

    /// `text` as a JSON string literal, appended to `bytes` (UTF-8).
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        JSONWriter.appendString(text, to: &bytes)
    }

    /// The most bytes `writeQuoted` writes for a text of `utf8Count` bytes.
    package static func quotedLimit(utf8Count: Int) -> Int {
        JSONWriter.quotedLimit(utf8Count: utf8Count)
    }

    /// `text` as a JSON string literal written at `at`, which has room for `quotedLimit` of its
    /// UTF-8 count; returns the end (the event log writes its lines through a pointer).
    package static func writeQuoted(_ text: String, at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        JSONWriter.writeQuoted(text, at: at)
    }
}
