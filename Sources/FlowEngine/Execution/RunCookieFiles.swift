import FlowDSL
import FlowHTTP
import FlowTasks
import Foundation

/// `defaults.http.cookies: { load, save }` for one run: the cookie lines read from `load` when the
/// run is prepared, and where the jar goes when it ends. Paths follow the workflow's path rule
/// (`WorkflowPath`: relative to the workflow's folder). The saved file is a Netscape cookie file
/// as curl's `-c` writes it, created with mode 0600 (cookies are credentials) and renamed into
/// place once complete, so a reader never sees half a jar.
struct RunCookieFiles: Sendable {
    /// The lines of the `load` file (empty without one).
    let lines: [String]
    /// The absolute path of `save`, if any.
    let savePath: String?

    /// The files of `files` resolved, and the `load` file read. A missing `load` file is an error,
    /// unless it is also the `save` file: the first run of a workflow that keeps its session starts
    /// with an empty jar.
    static func prepare(_ files: CookieFiles?, scope: ExpressionScope, folder: String) throws(StepError)
        -> RunCookieFiles?
    {
        guard let files else { return nil }
        var savePath: String?
        if let save = files.save {
            savePath = try WorkflowPath.resolve(
                save, key: "'cookies.save'", in: scope, folder: folder, allowOutside: false
            ).path
        }
        var lines: [String] = []
        if let load = files.load {
            let path = try WorkflowPath.resolve(
                load, key: "'cookies.load'", in: scope, folder: folder, allowOutside: false
            ).path
            if let data = FileManager.default.contents(atPath: path) {
                lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            } else if FileManager.default.fileExists(atPath: path) || path != savePath {
                throw StepError(
                    "cookies.load '\(load.text)' (\(path)) \(FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist")",
                    at: load.location)
            }
        }
        return RunCookieFiles(lines: lines, savePath: savePath)
    }

    /// Writes `cookies` (Netscape lines) to the save file on a thread of its own (file I/O stays off
    /// the Dispatch pool); the future fails with the reason when it cannot be written.
    func save(_ cookies: [String], on queue: DispatchQueue) -> Future<Void> {
        let promise = Promise<Void>(on: queue)
        guard let savePath else {
            promise.succeed(())
            return promise.future
        }
        Thread {
            do {
                try Self.write(cookies, to: savePath)
                promise.succeed(())
            } catch {
                promise.fail(error)
            }
        }.start()
        return promise.future
    }

    private static func write(_ cookies: [String], to path: String) throws {
        let text =
            "# Netscape HTTP Cookie File\n# Written by flow; curl reads it with -b.\n\n"
            + cookies.map { $0 + "\n" }.joined()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let partial = folder + "/." + (path as NSString).lastPathComponent + ".flow-partial"
        guard
            FileManager.default.createFile(
                atPath: partial, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw CookieSaveError(message: "cannot write \(partial)")
        }
        if rename(partial, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            throw CookieSaveError(message: "cannot rename \(partial) to \(path): \(reason)")
        }
    }
}

/// Why the cookie jar could not be saved.
struct CookieSaveError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
