import FlowDSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one rule for paths in a workflow: a relative path is read from the workflow file's folder,
/// whatever the current folder; and a path whose `${{ }}` values came from elsewhere than the
/// author (a response, an item, a step's output: see `PathProvenance`) stays inside the folder its
/// authored text names — no `..` out of it, no absolute value, no symbolic link met below it —
/// unless the step sets `allow-outside: true`.
package enum WorkflowPath {
    /// `path` made absolute against `folder` (itself absolute) and normalized without touching the
    /// disk: `.` and empty segments dropped, each `..` removing the segment before it. The file
    /// operations then use this path, so the kernel walks exactly the segments checked here.
    package static func absolute(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : folder + "/" + path
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." {
                if !segments.isEmpty { segments.removeLast() }
                continue
            }
            segments.append(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// The value of `text` evaluated in `scope`, and the path it names, absolute and checked by the
    /// rule above. `key` names the value in messages (`'save-to'`); the caller masks secrets in them.
    static func resolve(
        _ text: ScalarText, key: String, in scope: ExpressionScope, folder: String, allowOutside: Bool
    ) throws(StepError) -> (value: String, path: String) {
        if let syntaxError = text.syntaxError {
            throw StepError(
                "invalid expression: \(syntaxError.message)", at: text.location(ofOffset: syntaxError.offset))
        }
        guard let template = text.template, !template.isLiteral else {
            return (text.text, absolute(text.text, in: folder))
        }
        let value: String
        let authoredPrefix: String?
        do {
            (value, authoredPrefix) = try template.evaluateWithAuthoredPrefix(scope)
        } catch {
            throw StepError(
                "cannot evaluate '\(text.text)': \(error.message)", at: text.location(ofOffset: error.offset))
        }
        let path = absolute(value, in: folder)
        guard let authoredPrefix, !allowOutside else { return (value, path) }
        if let problem = problem(path: path, value: value, authoredPrefix: authoredPrefix, folder: folder) {
            throw StepError(refusal(key: key, value: value, problem: problem), at: text.location)
        }
        return (value, path)
    }

    /// For `--dry-run`: the message the run would fail with for `text` when its value is known
    /// in `context` (a `for-each` item, an input) and breaks the rule; nil otherwise, also when a
    /// value is known only at run time.
    package static func refusal(
        _ text: ScalarText, key: String, in context: some EvaluationContext, folder: String
    ) -> String? {
        guard let template = text.template, !template.isLiteral,
            let (value, authoredPrefix) = try? template.evaluateWithAuthoredPrefix(context),
            let authoredPrefix
        else { return nil }
        let path = absolute(value, in: folder)
        return problem(path: path, value: value, authoredPrefix: authoredPrefix, folder: folder).map {
            refusal(key: key, value: value, problem: $0)
        }
    }

    private static func refusal(key: String, value: String, problem: String) -> String {
        "\(key) is '\(Echo.text(value, limit: 300))': \(problem); set 'allow-outside: true' on the step "
            + "if the value is trusted, or clean it first (see the string functions, e.g. basename())"
    }

    /// Why `path` (absolute, normalized, from `value`) breaks the rule, or nil.
    static func problem(path: String, value: String, authoredPrefix: String, folder: String) -> String? {
        // The folder the authored text names: up to its last `/` ("downloads/file-" → "downloads/").
        let written = authoredPrefix.lastIndex(of: "/").map { String(authoredPrefix[...$0]) } ?? ""
        let root = absolute(written, in: folder)
        let shown = written.isEmpty ? "the workflow's folder (\(folder))" : "'\(Echo.text(written))' (\(root))"
        let inside = root == "/" || path == root || path.hasPrefix(root + "/")
        guard inside else {
            let rest = value.dropFirst(authoredPrefix.count)
            let how = rest.hasPrefix("/") ? "an absolute path" : "'..'"
            return "its ${{ }} value leads outside \(shown) with \(how)"
        }
        // Every segment below the root that exists must not be a symbolic link: a link there could
        // point anywhere, and its target is not the author's to vouch for.
        var walked = root == "/" ? "" : root
        for segment in path.dropFirst(walked.count).split(separator: "/") {
            walked += "/" + segment
            var info = stat()
            guard lstat(walked, &info) == 0 else { break }  // nothing further exists yet
            if (info.st_mode & S_IFMT) == S_IFLNK {
                return "the way there from \(shown) passes the symbolic link '\(walked)'"
            }
        }
        return nil
    }
}
