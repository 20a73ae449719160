/// `defaults.http.cookies: { load: FILE, save: FILE }`: the run's cookie jar read from a Netscape
/// cookie file when the run starts (curl's `-b FILE`) and written to one when it ends (`-c FILE`).
public struct CookieFiles: Sendable, Hashable {
    /// `load`: the file read into the jar before any request.
    public let load: ScalarText?
    /// `save`: the file the jar is written to when the run ends.
    public let save: ScalarText?
    /// Where `cookies:` is written.
    public let location: SourceLocation

    /// Cookie files.
    public init(load: ScalarText?, save: ScalarText?, location: SourceLocation) {
        self.load = load
        self.save = save
        self.location = location
    }
}
