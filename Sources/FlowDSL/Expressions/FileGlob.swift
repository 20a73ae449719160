#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `files('glob')`: the paths matching a shell pattern, relative to a folder, sorted.
enum FileGlob {
    /// Why a pattern could not be matched.
    struct Failure: Error {
        let message: String
    }

    /// The matching files (not folders) as paths relative to `folder`, sorted by byte order; an
    /// empty list when nothing matches.
    static func matches(_ pattern: Value, in folder: String) throws(Failure) -> Value {
        guard case .string(let text) = pattern else {
            throw Failure(message: "files() expects a pattern string, got \(pattern.typeName)")
        }
        guard !text.isEmpty else { throw Failure(message: "files() expects a pattern, got an empty string") }
        guard !text.hasPrefix("/") else {
            throw Failure(message: "files() takes a pattern relative to the workflow's folder, not '\(text)'")
        }
        // The folder is escaped so that its own `*`, `?` or `[` match themselves.
        var prefix = ""
        for character in folder {
            if "*?[]\\".contains(character) { prefix.append("\\") }
            prefix.append(character)
        }
        if !prefix.hasSuffix("/") { prefix += "/" }
        var found = glob_t()
        defer { globfree(&found) }
        let status = glob(prefix + text, GLOB_MARK, nil, &found)
        guard status == 0 else {
            if status == GLOB_NOMATCH { return .array([]) }
            throw Failure(message: "files('\(text)') could not read the folder")
        }
        let folderPrefix = folder.hasSuffix("/") ? folder : folder + "/"
        var paths: [String] = []
        for position in 0..<Int(found.gl_pathc) {
            guard let pointer = found.gl_pathv[position] else { continue }
            let path = String(cString: pointer)
            if path.hasSuffix("/") { continue }  // GLOB_MARK marks folders
            paths.append(path.hasPrefix(folderPrefix) ? String(path.dropFirst(folderPrefix.count)) : path)
        }
        paths.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return .array(paths.map(Value.string))
    }
}
