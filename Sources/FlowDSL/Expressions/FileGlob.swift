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

    /// Why `pattern` may not be matched, or nil: it is empty, absolute, or climbs out of the
    /// workflow's folder with `..` (`files('../../etc/*')`). The checker asks this of a literal
    /// pattern, the evaluator of every pattern.
    static func problem(_ pattern: String) -> String? {
        guard !pattern.isEmpty else { return "the pattern is empty" }
        if pattern.hasPrefix("/") {
            return "the pattern '\(Echo.text(pattern))' is absolute; write it relative to the workflow's folder"
        }
        var depth = 0
        for segment in pattern.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == ".." {
                depth -= 1
                if depth < 0 {
                    return "the pattern '\(Echo.text(pattern))' leads outside the workflow's folder "
                        + "(files() lists only files inside it)"
                }
            } else if segment != "." {
                depth += 1
            }
        }
        return nil
    }

    /// The matching files (not folders) as paths relative to `folder`, sorted by byte order; an
    /// empty list when nothing matches.
    static func matches(_ pattern: Value, in folder: String) throws(Failure) -> Value {
        guard case .string(let text) = pattern else {
            throw Failure(message: "files() expects a pattern string, got \(pattern.typeName)")
        }
        if let problem = problem(text) { throw Failure(message: "files(): \(problem)") }
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
