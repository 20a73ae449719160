import FlowDSL
import FlowDigest
import FlowKit
import Foundation

/// One file of the workflow's ConfigMap: its key, its path under `/flow` and on this machine.
struct MountedFile {
    let key: String
    let path: String
    let source: String
}

extension ArgoManifest {
    /// The volume of the workflow's files (the ConfigMap) and the writable folder they are
    /// placed in (`/flow`, an `emptyDir`): flow resolves relative paths (`save-to`, a `run`
    /// step's output files) against the workflow file's folder, so that folder must be
    /// writable, which a ConfigMap volume is not.
    static let filesVolume = "workflow"
    static let folderVolume = "workdir"

    /// The files the ConfigMap must hold: the workflow file and every file its `uses` steps
    /// call (at any depth). Their paths under `/flow` keep their layout relative to the folder
    /// that holds them all (`main/deploy.yaml` beside `shared/common.yaml` when the workflow
    /// calls `../shared/common.yaml`), so `uses` paths resolve in the pod as here. Keys are the
    /// paths escaped one-to-one (`_` → `__`, `/` → `_-`, any other character outside
    /// `[A-Za-z0-9.-]` → `_xHH` per byte), so `lib/a.yaml` and `lib_a.yaml` never share one.
    var configMapFiles: [MountedFile] {
        var sources = [file]
        func collect(_ workflow: Workflow) {
            for (path, callee) in workflow.called.sorted(by: { $0.key < $1.key }) where !sources.contains(path) {
                sources.append(path)
                collect(callee)
            }
        }
        collect(workflow)
        let absolute = sources.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        // The deepest folder holding every file.
        var root = absolute[0].split(separator: "/", omittingEmptySubsequences: true).dropLast().map(String.init)
        for path in absolute.dropFirst() {
            let folder = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().map(String.init)
            var common = 0
            while common < min(root.count, folder.count), root[common] == folder[common] { common += 1 }
            root = Array(root.prefix(common))
        }
        return zip(sources, absolute).map { source, path in
            let relative = path.split(separator: "/", omittingEmptySubsequences: true).dropFirst(root.count)
                .joined(separator: "/")
            return MountedFile(key: Self.configKey(relative), path: relative, source: source)
        }
    }

    /// The workflow file's path in the pods.
    var mountedWorkflowPath: String { "\(Self.mountPath)/\(configMapFiles[0].path)" }

    /// A ConfigMap key for a relative path: the path escaped one-to-one into `[-._a-zA-Z0-9]`.
    static func configKey(_ path: String) -> String {
        var key = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "_"): key += "__"
            case UInt8(ascii: "/"): key += "_-"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                key.append(Character(UnicodeScalar(byte)))
            default: key += "_x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return key
    }

    /// Why `workflow` cannot be exported when an input is `type: file`: a path on the machine
    /// that runs flow, checked there, which the pods do not have.
    static func fileInputProblem(_ workflow: Workflow) -> Problem? {
        guard let input = workflow.inputs.first(where: { $0.kind == .file }) else { return nil }
        return Problem(
            message: "\(input.location): input '\(input.name)' is type: file, a path on the machine that runs "
                + "flow, which the pods do not have; make it type: string naming a path in the image or on a "
                + "volume mounted in every pod (--overlay)")
    }

    /// A problem when a `uses` path is absolute: in the pods the files are under `/flow`, so an
    /// absolute path would name a file the pod does not have.
    func checkFiles() throws(Problem) {
        var seen: Set<String> = []
        func check(_ workflow: Workflow) throws(Problem) {
            for step in workflow.allSteps {
                guard case .uses(let uses) = step.kind else { continue }
                if uses.path.hasPrefix("/") {
                    throw Problem(
                        message: "\(uses.location): step '\(step.id)' uses the absolute path \(uses.path); in the "
                            + "pods the workflow's files are under \(Self.mountPath), at their paths relative to the "
                            + "workflow file: write it relative to \(workflow.file)")
                }
            }
            for (path, callee) in workflow.called where seen.insert(path).inserted {
                try check(callee)
            }
        }
        try check(workflow)
    }

    /// The first 10 hex digits of the SHA-256 of the ConfigMap's keys and contents: the suffix
    /// of its default name, so each version of the files is a ConfigMap of its own and a
    /// running Workflow keeps reading the files it was exported with. Nil when a file cannot be read.
    var configMapDigest: String? {
        var hash = SHA256()
        for mounted in configMapFiles.sorted(by: { $0.key < $1.key }) {
            guard let contents = FileManager.default.contents(atPath: mounted.source) else { return nil }
            hash.update(data: Array(mounted.key.utf8) + [0])
            hash.update(data: contents)
            hash.update(data: [0])
        }
        return String(hash.finalize().hexString.prefix(10))
    }

    /// The ConfigMap volume (each file at its relative path) and the writable `emptyDir` for `/flow`.
    var workflowVolumes: [ManifestNode] {
        [
            .map([
                ("name", .string(Self.filesVolume)),
                (
                    "configMap",
                    .map([
                        ("name", .string(configMap)),
                        (
                            "items",
                            .list(configMapFiles.map { .map([("key", .string($0.key)), ("path", .string($0.path))]) })
                        ),
                    ])
                ),
            ]),
            .map([("name", .string(Self.folderVolume)), ("emptyDir", .map([]))]),
        ]
    }

    /// `/flow` as the writable `emptyDir`, each of the workflow's files mounted into it from
    /// the ConfigMap by `subPath` (read-only, and fixed for the pod's life).
    var workflowMounts: [ManifestNode] {
        [
            .map([("name", .string(Self.folderVolume)), ("mountPath", .string(Self.mountPath))])
        ]
            + configMapFiles.map {
                .map([
                    ("name", .string(Self.filesVolume)), ("mountPath", .string("\(Self.mountPath)/\($0.path)")),
                    ("subPath", .string($0.path)), ("readOnly", .bool(true)),
                ])
            }
    }
}

extension String {
    /// The text with `0` in front up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
