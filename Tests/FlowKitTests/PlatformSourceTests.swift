import Foundation
import Testing

/// Apple's platforms cannot be built here, so the sources are read instead: Glibc, Linux's C
/// library, is named only inside `#if canImport(Glibc)` or `#if os(Linux)` (with Darwin's spelling
/// in the other branch, as `SystemCall` has it), never where a macOS build would compile it.
@Suite struct PlatformSourceTests {
    /// The lines of `text` that import or name Glibc outside a guard for it, as "line: text".
    static func unguardedGlibc(in text: String) -> [String] {
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
            if code.contains("import Glibc") || code.contains("Glibc.") {
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
            """
        #expect(Self.unguardedGlibc(in: unguarded).map { $0.prefix(2) } == ["1:", "3:", "7:", "9:"])
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
