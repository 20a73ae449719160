import Foundation
import Testing

/// Apple's platforms cannot be built here, so the sources are read instead: Glibc, Linux's C
/// library, is named only inside `#if canImport(Glibc)` or `#if os(Linux)` (with Darwin's spelling
/// in the other branch, as `SystemCall` has it), never where a macOS build would compile it; so
/// are the spellings only Glibc compiles, though they need no `Glibc.` prefix.
@Suite struct PlatformSourceTests {
    /// The lines of `text` that import or name Glibc, or spell what only Glibc compiles, outside a
    /// guard for it, as "line: text".
    static func unguardedGlibc(in text: String) -> [String] {
        // What Glibc spells and Darwin does not: file actions and spawn attributes are structs made
        // with `()` in Glibc and opaque pointers in Darwin; `environ` is not linkable in Darwin
        // (`_NSGetEnviron()`); `stat`'s times are `st_mtimespec`…; Darwin has no `SOCK_CLOEXEC` or
        // `MSG_NOSIGNAL`; `__rlimit_resource_t` is Glibc's own type.
        let glibcOnly =
            #/\bposix_spawn(_file_actions|attr)_t\(\)|\.st_[amc]tim\b|\bSOCK_CLOEXEC\b|\bMSG_NOSIGNAL\b|\b__rlimit_resource_t\b|\benviron\b/#
            // Word boundaries as identifiers have them: Unicode's run `st_mtim.tv_sec` into one word.
            .wordBoundaryKind(.simple)
        // Each open `#if`: whether the branch being read is one only Glibc's platforms compile.
        var branches: [Bool] = []
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("#if ") || code.hasPrefix("#elseif ") {
                let condition = code.drop { $0 != " " }.trimmingCharacters(in: .whitespaces)
                let linuxOnly = condition == "canImport(Glibc)" || condition == "os(Linux)"
                if code.hasPrefix("#if ") {
                    branches.append(linuxOnly)
                } else if !branches.isEmpty {
                    branches[branches.count - 1] = linuxOnly
                }
                continue
            }
            if code == "#else", !branches.isEmpty {
                branches[branches.count - 1] = false
                continue
            }
            if code == "#endif" {
                _ = branches.popLast()
                continue
            }
            if code.hasPrefix("//") || branches.contains(true) { continue }
            if code.contains("import Glibc") || code.contains("Glibc.") || code.firstMatch(of: glibcOnly) != nil {
                found.append("\(number + 1): \(code)")
            }
        }
        return found
    }

    @Test func theScannerFindsAnUnguardedUseAndAcceptsAGuardedOne() {
        let guarded = """
            #if canImport(Glibc)
                import Glibc
            #elseif canImport(Darwin)
                import Darwin
            #endif
            #if os(Linux)
                _ = Glibc.close(3)
            #else
                _ = Darwin.close(3)
            #endif
            """
        #expect(Self.unguardedGlibc(in: guarded).isEmpty)
        let unguarded = """
            import Glibc
            #if canImport(Darwin)
                _ = Glibc.close(3)
            #elseif canImport(Glibc)
                _ = Glibc.close(3)
            #else
                _ = Glibc.pipe(&ends)
            #endif
            let sent = Glibc.send(fd, bytes, count, 0)
            var actions = posix_spawn_file_actions_t()
            let spawned = posix_spawn(&pid, path, &actions, nil, &argv, environ)
            let seconds = info.st_mtim.tv_sec
            let socket = socket(family, type | Int32(SOCK_CLOEXEC.rawValue), 0)
            """
        #expect(
            Self.unguardedGlibc(in: unguarded).map { $0.prefix(3) } == [
                "1: ", "3: ", "7: ", "9: ", "10:", "11:", "12:", "13:",
            ])
        // Darwin's spellings, and words that only contain a Glibc-only one, pass.
        let portable = """
            var actions: posix_spawn_file_actions_t?
            let seconds = info.st_mtimespec.tv_sec
            let environment = ProcessInfo.processInfo.environment
            """
        #expect(Self.unguardedGlibc(in: portable).isEmpty)
    }

    @Test func noSourceNamesGlibcOutsideAGuard() throws {
        let modules = try FileManager.default.contentsOfDirectory(atPath: PublicSurfaceTests.root + "/Sources")
        var offending: [String] = []
        var files = 0
        for module in modules.sorted() {
            for (path, text) in try PublicSurfaceTests.swiftFiles(under: "Sources/" + module) {
                files += 1
                offending += Self.unguardedGlibc(in: text).map { "\(path):\($0)" }
            }
        }
        #expect(files > 300)
        #expect(
            offending.isEmpty,
            "Glibc outside #if canImport(Glibc) / #if os(Linux) (see SystemCall):\n\(offending.joined(separator: "\n"))"
        )
    }
}
