internal import CCurlShim

/// What the linked libcurl reports about itself.
package enum CurlVersion {
    /// libcurl's version string, such as `7.88.1`.
    package static var text: String {
        let info = flow_curl_version_info()
        return String(cString: info.pointee.version)
    }
}
