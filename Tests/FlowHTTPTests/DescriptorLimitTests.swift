import FlowHTTP
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The descriptor limit (`ulimit -n`): raised at start, and named when it still runs out.
///
/// These tests change the process's own limit for a moment and restore it; the suite runs one test
/// at a time (`--no-parallel`), so nothing else opens descriptors meanwhile.
@Suite(.serialized) struct DescriptorLimitTests {
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    private static func limits() -> rlimit {
        var limit = rlimit()
        _ = getrlimit(resource, &limit)
        return limit
    }

    private static func setSoftLimit(_ soft: rlim_t) {
        var limit = limits()
        limit.rlim_cur = soft
        _ = setrlimit(resource, &limit)
    }

    @Test func theSoftLimitIsRaisedToTheHardLimit() throws {
        let original = Self.limits()
        defer { Self.setSoftLimit(original.rlim_cur) }
        try #require(original.rlim_max > 256, "the hard limit leaves nothing to raise")
        Self.setSoftLimit(256)
        let raised = DescriptorLimit.raiseSoftLimit()
        let expected = original.rlim_max == rlim_t.max ? nil : Int(original.rlim_max)
        if let expected {
            #expect(raised == expected)
        } else {
            #expect(raised == nil || raised! > 256)
        }
    }

    @Test func runningOutOfDescriptorsIsNamedNotReportedAsADeadServer() async throws {
        let port = try closedPort()
        let client = HTTPClient()
        defer { client.shutdown() }
        let original = Self.limits()
        var error: HTTPError?
        // A descriptor that an earlier test's client or server closes in the background can free a
        // lower number after it was measured, and the socket then opens ("Couldn't connect");
        // measure again then, a bounded number of times.
        for _ in 0..<5 {
            // The lowest free descriptor number: with the soft limit there, no socket can be opened.
            let lowestFree = dup(0)
            try #require(lowestFree >= 0)
            close(lowestFree)
            Self.setSoftLimit(rlim_t(lowestFree))
            error = await httpError(client.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/")))
            Self.setSoftLimit(original.rlim_cur)
            if error?.message.contains("Couldn't connect") != true { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let failure = try #require(error)
        #expect(failure.message.contains("too many open files"), "\(failure)")
        #expect(failure.message.contains("ulimit -n"), "\(failure)")
        #expect(!failure.message.contains("Couldn't connect"), "\(failure)")
    }
}
