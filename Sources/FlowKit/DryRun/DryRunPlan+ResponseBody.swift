import FlowDSL
import Foundation

extension DryRunPlan {
    /// What an `http` step does with its response body: `save-to` (where, and the partial file a
    /// resume would continue, with its current size) and an explicit `max-body`.
    func responseBodyLines(_ options: ResponseBodyOptions, saveTo: String?) -> [String] {
        var lines: [String] = []
        if let maxBody = options.maxBody { lines.append("      max-body \(SizeSyntax.format(maxBody))") }
        guard let saveTo else { return lines }
        let final = URL(fileURLWithPath: resolved(saveTo))
        let partial = final.deletingLastPathComponent().appendingPathComponent(
            ".\(final.lastPathComponent).flow-partial")
        lines.append(
            "      save-to \(final.path) (a 2xx body is written to \(partial.lastPathComponent), renamed when complete)"
        )
        guard options.resume else {
            lines.append(
                "      resume: no (every attempt starts from the first byte; a failed step deletes the partial file)")
            return lines
        }
        var info = stat()
        let size = stat(partial.path, &info) == 0 ? Int64(info.st_size) : 0
        if size > 0 {
            lines.append(
                "      resume: \(size) bytes are there; the request adds Range: bytes=\(size)- and If-Range "
                    + "(the ETag or Last-Modified it was started with); a 200 or 416 starts over")
        } else {
            lines.append(
                "      resume: yes (after a drop or a killed run, the partial file continues with Range and If-Range)")
        }
        return lines
    }
}
