#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a `uses:` path points: joined with the calling file's folder and normalized by its
/// text alone (FlowDSL does not import Foundation; symbolic links are not followed).
enum UsesPath {
    /// The called file as locations name it: `workflows/lib/deploy.yaml` for `./lib/deploy.yaml`
    /// written in `workflows/uses.yaml`; an absolute `path` stays absolute.
    static func display(_ path: String, calledFrom caller: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        let slash = caller.lastIndex(of: "/")
        let folder = slash.map { String(caller[...$0]) } ?? ""
        return normalized(folder + path)
    }

    /// The absolute form of a `display` path: the key that tells files apart (cycles, reuse).
    static func absolute(_ display: String) -> String {
        if display.hasPrefix("/") { return normalized(display) }
        return normalized(currentDirectory() + "/" + display)
    }

    /// Whether `path` is written as a URL (`https://…`, `git@…`) rather than a local file.
    static func isURL(_ path: String) -> Bool {
        if path.hasPrefix("git@") { return true }
        guard let colon = path.firstIndex(of: ":") else { return false }
        let scheme = path[..<colon]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && path[colon...].hasPrefix("://")
    }

    /// `a/./b/../c` as `a/c`; leading `..` of a relative path stay.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
