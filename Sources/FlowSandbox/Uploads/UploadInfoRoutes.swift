internal import Hummingbird

/// `GET /uploads/{protocol}/{id}/info`: what the server stored, for tests to compare byte-exact.
enum UploadInfoRoutes {
    private struct Info: Encodable {
        var size: Int
        var length: Int
        var sha256: String
        var complete: Bool
    }

    static func register(on router: Router<SandboxContext>, state: SandboxState) {
        router.get("uploads/:protocol/:id/info") { _, context in
            guard let name = context.parameters.get("protocol"), let kind = Upload.Kind(rawValue: name) else {
                return JSONResponse.error("the protocol is 'cr' or 'tus'", status: .notFound)
            }
            guard let id = context.parameters.get("id"), let upload = state.uploads.find(kind, id) else {
                return JSONResponse.error("no such upload", status: .notFound)
            }
            let snapshot = upload.snapshot()
            return JSONResponse.make(
                Info(
                    size: snapshot.offset, length: snapshot.length, sha256: snapshot.sha256, complete: snapshot.complete
                )
            )
        }
    }
}
