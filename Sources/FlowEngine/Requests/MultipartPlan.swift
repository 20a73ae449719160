import FlowDSL
import FlowHTTP

/// One `multipart` part of a planned request: its name, text or file path (resolved against the
/// workflow file's folder by `RequestPlan`), and the filename and content type it is sent with. The runner sends
/// it, the dry run prints it; neither decides these differently.
package struct MultipartPlan: Sendable, Equatable {
    /// What the part carries.
    package enum Content: Sendable, Equatable {
        /// Text sent as the part's body.
        case text(String)
        /// A file streamed from disk.
        case file(path: String)
    }

    /// The field name.
    package let name: String
    /// Its content.
    package let content: Content
    /// The `filename` sent: as written, else a file's last path component; none for text.
    package let filename: String?
    /// The `Content-Type` given, if any (otherwise libcurl's choice, see `MultipartField`).
    package let contentType: String?
    /// Where the part is written, for errors about it.
    package let location: SourceLocation

    init(
        _ part: MultipartPart, text: (ScalarText) throws(StepError) -> String,
        path resolvePath: (ScalarText) throws(StepError) -> String
    ) throws(StepError) {
        name = part.name
        var type: ScalarText?
        switch part.content {
        case .text(let value, let written):
            content = .text(try text(value))
            filename = nil
            type = written
            location = value.location
        case .file(let pathText, let filenameText, let written):
            let path = try resolvePath(pathText)
            content = .file(path: path)
            if let filenameText { filename = try text(filenameText) } else { filename = Self.lastComponent(path) }
            type = written
            location = pathText.location
        }
        if let type { contentType = try text(type) } else { contentType = nil }
    }

    /// `path`, or with a relative path and a folder, the path inside that folder.
    static func resolve(_ path: String, in folder: String?) -> String {
        guard let folder, !path.hasPrefix("<") else { return path }
        return Workflow.path(path, in: folder)
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
