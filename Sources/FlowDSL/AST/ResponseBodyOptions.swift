/// What an `http` step does with the response body: keep it in memory (up to `max-body`) or
/// stream it to a file (`save-to`), continuing a partial one (`resume`).
package struct ResponseBodyOptions: Sendable, Hashable {
    /// `save-to`: the file the body is written to, relative to the workflow file's folder.
    package var saveTo: ScalarText?
    /// `resume`: continue a partial `save-to` download with a `Range` request.
    package var resume: Bool
    /// `max-body`: the largest body kept in memory, in bytes (default `defaults.http.max-body`,
    /// else `defaultMaxBody`).
    package var maxBody: Int?
    /// `max-size`: the largest `save-to` file, in bytes (the whole file, a resumed part included);
    /// nil for no limit.
    package var maxSize: Int?

    /// The default `max-body`: 64 MiB.
    package static let defaultMaxBody = 64 << 20

    /// Options; by default the body is kept in memory under the default cap.
    package init(saveTo: ScalarText? = nil, resume: Bool = false, maxBody: Int? = nil, maxSize: Int? = nil) {
        self.saveTo = saveTo
        self.resume = resume
        self.maxBody = maxBody
        self.maxSize = maxSize
    }
}
