/// `defaults.http.cookies: { load: FILE, save: FILE }`: the run's cookie jar read from a Netscape
/// cookie file when the run starts (curl's `-b FILE`) and written to one when it ends (`-c FILE`).
package struct CookieFiles: Sendable, Hashable {
    /// `load`: the file read into the jar before any request.
    package let load: ScalarText?
    /// `save`: the file the jar is written to when the run ends.
    package let save: ScalarText?
    /// Where `cookies:` is written.
    package let location: SourceLocation

    /// Cookie files.
    package init(load: ScalarText?, save: ScalarText?, location: SourceLocation) {
        self.load = load
        self.save = save
        self.location = location
    }
}
