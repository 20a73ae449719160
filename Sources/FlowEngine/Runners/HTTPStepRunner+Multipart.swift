import FlowDSL
import FlowHTTP
import Foundation

extension HTTPStepRunner {
    /// A planned part as FlowHTTP sends it; a file part's file must exist and be readable (its
    /// size is read now, its bytes only as they are sent).
    func multipartField(_ part: MultipartPlan) throws(StepError) -> MultipartField {
        switch part.content {
        case .text(let text):
            return MultipartField(
                name: part.name, filename: part.filename, contentType: part.contentType,
                source: .bytes(Array(text.utf8)))
        case .file(let path):
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw StepError(
                    masker(
                        "multipart part '\(part.name)': the file '\(path)' does not exist"
                            + " (a relative path is read from the workflow file's folder)"),
                    at: part.location)
            }
            guard !isFolder.boolValue, FileManager.default.isReadableFile(atPath: path),
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
            else {
                throw StepError(
                    masker(
                        "multipart part '\(part.name)': cannot read the file '\(path)'"
                            + (isFolder.boolValue ? " (it is a folder)" : "")),
                    at: part.location)
            }
            return MultipartField(
                name: part.name, filename: part.filename, contentType: part.contentType,
                source: .file(path: path, size: size.int64Value))
        }
    }
}
