extension Workflow {
    /// The folder of the workflow file as given (`.` for a bare file name, `/` at the root): what
    /// relative paths in the file are read from (`files()`, `multipart` files, `tls` files,
    /// `save-to`), so a workflow behaves the same from whatever folder it is run.
    package var folder: String { Self.folder(ofFile: file) }

    /// `path`, or when it is relative, `path` inside `folder` (a bare `.` folder leaves it as is).
    package static func path(_ path: String, in folder: String) -> String {
        if path.hasPrefix("/") || folder.isEmpty || folder == "." { return path }
        return folder.hasSuffix("/") ? folder + path : folder + "/" + path
    }

    /// The folder of the file at `file`, as `folder` gives it.
    package static func folder(ofFile file: String) -> String {
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }
}
