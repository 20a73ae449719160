import FlowEngine
import Foundation

/// How `--dry-run` shows a `multipart` body: the header libcurl will add, then each part by name
/// with its text, or its file's path and size (from the file's metadata; no content is read).
enum DryRunMultipart {
    static func lines(_ parts: [MultipartPlan]) -> [String] {
        var lines = ["      header Content-Type: multipart/form-data; boundary=<chosen by libcurl>"]
        for part in parts {
            var details: [String] = []
            if let filename = part.filename { details.append("filename \(filename)") }
            if let type = part.contentType { details.append("content-type \(type)") }
            let suffix = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
            switch part.content {
            case .text(let text):
                lines.append("      part \(part.name) = \(text)\(suffix)")
            case .file(let path):
                lines.append("      part \(part.name) from file \(path), \(size(of: path))\(suffix)")
            }
        }
        return lines
    }

    private static func size(of path: String) -> String {
        guard !path.contains("<"), let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? NSNumber
        else { return path.contains("<") ? "size known at run time" : "missing now" }
        return "\(size.int64Value) bytes"
    }
}
