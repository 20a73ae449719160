import Foundation
import Testing

/// FlowKit is the one public API: the command line uses nothing else of the engine directly, and
/// the engine's modules declare nothing `public`.
@Suite struct PublicSurfaceTests {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// Every Swift file under `folder` (relative to the root), with its text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        let base = root + "/" + folder
        let enumerator = try #require(FileManager.default.enumerator(atPath: base))
        var files: [(String, String)] = []
        while let name = enumerator.nextObject() as? String {
            guard name.hasSuffix(".swift") else { continue }
            files.append((folder + "/" + name, try String(contentsOfFile: base + "/" + name, encoding: .utf8)))
        }
        return files
    }

    @Test func theCommandLineImportsFlowKitAndNothingOfTheEngine() throws {
        let engine: Set<String> = [
            "FlowDSL", "FlowEngine", "FlowJournal", "FlowHTTP", "FlowTasks", "FlowDigest", "FlowAWS",
        ]
        let files = try Self.swiftFiles(under: "Sources/flow")
        #expect(files.count > 20)
        var offending: [String] = []
        for (path, text) in files {
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), index + 1 < words.count else { continue }
                // `import X`, `@testable import X`, `internal import X`, `import struct X.Y`.
                let accessLevels: Set<String> = ["internal", "public", "package"]
                guard words[..<index].allSatisfy({ $0.hasPrefix("@") || accessLevels.contains(String($0)) }) else {
                    continue
                }
                let kinds: Set<String> = ["struct", "class", "enum", "func", "var", "protocol", "typealias"]
                let named = words[(index + 1)...].map(String.init).filter { !kinds.contains($0) }
                if let module = named.first?.split(separator: ".").first, engine.contains(String(module)) {
                    offending.append("\(path): \(line)")
                }
            }
        }
        #expect(offending.isEmpty, "Sources/flow must import FlowKit only:\n\(offending.joined(separator: "\n"))")
    }

    /// `text` without its `//` comments (a doc comment may name a package declaration).
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    /// The command line is an app like any other: it uses FlowKit's public API and none of its
    /// `package` declarations. Found by name, without building: each name FlowKit declares
    /// `package` (and nowhere declares otherwise, in FlowKit or in Sources/flow), used in
    /// Sources/flow's code as a type (`RunSession`) or as a member (`.quitAtOnce`).
    @Test func theCommandLineUsesNoPackageDeclarationOfFlowKit() throws {
        let declaration =
            #/^\s*(?:@\w+\s+)*((?:\w+\s+)*)(struct|enum|class|actor|protocol|typealias|func|var|let)\s+(\w+)/#
            .anchorsMatchLineEndings()
        let typeKinds: Set<Substring> = ["struct", "enum", "class", "actor", "protocol", "typealias"]
        var packageTypes: Set<String> = []
        var packageMembers: Set<String> = []
        var declaredOtherwise: Set<String> = []
        for (_, text) in try Self.swiftFiles(under: "Sources/FlowKit") {
            for match in Self.code(text).matches(of: declaration) {
                let (modifiers, kind, name) = (match.output.1, match.output.2, String(match.output.3))
                guard modifiers.split(separator: " ").contains("package") else {
                    declaredOtherwise.insert(name)
                    continue
                }
                if typeKinds.contains(kind) { packageTypes.insert(name) } else { packageMembers.insert(name) }
            }
        }
        let files = try Self.swiftFiles(under: "Sources/flow")
        let local = #/\b(?:struct|enum|class|actor|protocol|typealias|func|var|let|case)\s+(\w+)/#
        for (_, text) in files {
            for match in Self.code(text).matches(of: local) { declaredOtherwise.insert(String(match.output.1)) }
        }
        packageTypes.subtract(declaredOtherwise)
        packageMembers.subtract(declaredOtherwise)
        // Enough names that the check means something (RunSession, RunSettings, OnlyStep, …).
        #expect(packageTypes.count > 5)
        var offending: [String] = []
        for (path, text) in files {
            let code = Self.code(text)
            let words = code.matches(of: #/(\.?)\b(\w+)\b/#)
            for word in words {
                let (dot, name) = (word.output.1, String(word.output.2))
                if dot.isEmpty, packageTypes.contains(name) { offending.append("\(path): \(name)") }
                if !dot.isEmpty, packageMembers.contains(name) { offending.append("\(path): .\(name)") }
            }
        }
        #expect(offending.isEmpty, "Sources/flow uses FlowKit's package API:\n\(offending.joined(separator: "\n"))")
    }

    /// A re-export would hand the engine's modules to whoever imports FlowKit (and to the command
    /// line, past the import test above): FlowKit's files, the command line's and the Argo
    /// exporter's import each module they use themselves.
    @Test func noFileReExportsAModule() throws {
        var offending: [String] = []
        for folder in ["Sources/FlowKit", "Sources/flow", "Sources/FlowArgo"] {
            let files = try Self.swiftFiles(under: folder)
            #expect(!files.isEmpty, "\(folder)")
            for (path, text) in files {
                for line in text.split(separator: "\n")
                where line.trimmingCharacters(in: .whitespaces).hasPrefix("@_exported") {
                    offending.append("\(path): \(line)")
                }
            }
        }
        #expect(offending.isEmpty, "no @_exported imports:\n\(offending.joined(separator: "\n"))")
    }

    @Test func theEngineModulesDeclareNothingPublic() throws {
        var offending: [String] = []
        let modifiers = #/^\s*(@\w+(\([^)]*\))?\s+|(nonisolated|final|static|class|override)\s+)*public\b/#
        for module in [
            "FlowTasks", "FlowDSL", "FlowHTTP", "FlowDigest", "FlowEngine", "FlowJournal", "FlowSandbox", "FlowAWS",
            "FlowArgo",
        ] {
            for (path, text) in try Self.swiftFiles(under: "Sources/" + module) {
                for line in text.split(separator: "\n") where line.firstMatch(of: modifiers) != nil {
                    offending.append("\(path): \(line)")
                }
            }
        }
        #expect(offending.isEmpty, "only FlowKit declares public API:\n\(offending.prefix(20).joined(separator: "\n"))")
    }
}
