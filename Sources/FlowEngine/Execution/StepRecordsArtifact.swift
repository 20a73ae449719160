import FlowDSL
import Foundation

extension StepRecordsFile {
    /// The document a `--outputs-from` file stands for when it points at records Argo placed
    /// beside it as input artifacts (an exported workflow whose records go through an artifact
    /// repository, see Grammar.md's "Running on Argo Workflows"); any other document as it is.
    ///
    /// - `{"flow-artifact": PATH, "lost": RECORD}`: one step's records in the file at PATH; when
    ///   there is none (Argo loads no optional input artifact whose output was never saved), the
    ///   step's record as failed, so a lost need reads as a failed need.
    /// - `{"flow-aggregate": ID, "pods-folder": PATH}`: the records each item pod of fanned-out
    ///   step ID saved, one file each in the folder at PATH, as the `pods` list; no folder (no
    ///   item saved one) is an empty list, which reads as the step failed.
    ///
    /// A relative PATH is relative to the folder of `file`.
    package static func resolvingArtifacts(_ document: Value, file: String) throws(FormatError) -> Value {
        guard case .object(var root) = document else { return document }
        func beside(_ path: String) -> String {
            path.hasPrefix("/")
                ? path : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
        }
        if case .string(let relative)? = root["flow-artifact"] {
            let path = beside(relative)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                guard let lost = root["lost"] else {
                    throw FormatError(description: "\(file): no records at \(path) and no \"lost\" record")
                }
                return lost
            }
            do {
                return try Value(jsonText: text)
            } catch {
                throw FormatError(description: "\(path) (given by \(file)): not JSON (\(error))")
            }
        }
        guard root["flow-aggregate"] != nil, case .string(let relative)? = root["pods-folder"] else { return document }
        let folder = beside(relative)
        var pods: [Value] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
            do {
                pods.append(try Value(jsonText: text))
            } catch {
                throw FormatError(description: "\(path) (given by \(file)): not JSON (\(error))")
            }
        }
        root["pods-folder"] = nil
        root["pods"] = .array(pods)
        return .object(root)
    }
}
