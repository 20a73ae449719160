import FlowSandbox
import Foundation
import Testing

@Suite struct ContentRangeUploadTests {
    private func put(_ sandbox: Sandbox, _ id: String, range: String, body: Data = Data(), query: String = "")
        async throws -> Reply
    {
        try await HTTP.send(
            "PUT",
            sandbox.baseURL + "/uploads/cr/\(id)\(query)",
            headers: ["Content-Range": range],
            body: body
        )
    }

    @Test func chunksAnswer308UntilCompleteThen200WithSizeAndHash() async throws {
        try await withSandbox { sandbox in
            let file = Digests.sample(count: 250_000)
            let first = try await put(sandbox, "a", range: "bytes 0-99999/250000", body: file[0..<100_000])
            #expect(first.status == 308)
            #expect(first.headers["range"] == "bytes=0-99999")
            let second = try await put(sandbox, "a", range: "bytes 100000-199999/250000", body: file[100_000..<200_000])
            #expect(second.status == 308)
            #expect(second.headers["range"] == "bytes=0-199999")
            let last = try await put(sandbox, "a", range: "bytes 200000-249999/250000", body: file[200_000...])
            #expect(last.status == 200)
            let expected = try await Digests.hex("sha256", of: file)
            #expect(try last.object()["size"] as? Int == 250_000)
            #expect(try last.object()["sha256"] as? String == expected)

            let info = try await HTTP.send("GET", sandbox.baseURL + "/uploads/cr/a/info")
            #expect(try info.object()["size"] as? Int == 250_000)
            #expect(try info.object()["sha256"] as? String == expected)
            #expect(try info.object()["complete"] as? Bool == true)
        }
    }

    @Test func statusQueryReportsTheStoredRange() async throws {
        try await withSandbox { sandbox in
            let unknown = try await put(sandbox, "q", range: "bytes */1000")
            #expect(unknown.status == 308)
            #expect(unknown.headers["range"] == nil)
            _ = try await put(sandbox, "q", range: "bytes 0-399/1000", body: Digests.sample(count: 400))
            let status = try await put(sandbox, "q", range: "bytes */1000")
            #expect(status.status == 308)
            #expect(status.headers["range"] == "bytes=0-399")
        }
    }

    @Test func aChunkNotAtTheStoredOffsetIsRefusedWith416AndTheRange() async throws {
        try await withSandbox { sandbox in
            _ = try await put(sandbox, "gap", range: "bytes 0-99/300", body: Data(count: 100))
            let gap = try await put(sandbox, "gap", range: "bytes 200-299/300", body: Data(count: 100))
            #expect(gap.status == 416)
            #expect(gap.headers["range"] == "bytes=0-99")
            let overlap = try await put(sandbox, "gap", range: "bytes 50-149/300", body: Data(count: 100))
            #expect(overlap.status == 416)
            let info = try await HTTP.send("GET", sandbox.baseURL + "/uploads/cr/gap/info")
            #expect(try info.object()["size"] as? Int == 100)
        }
    }

    @Test func emptyFileCompletesWithTheEmptyHash() async throws {
        try await withSandbox { sandbox in
            let reply = try await put(sandbox, "empty", range: "bytes */0")
            #expect(reply.status == 200)
            #expect(try reply.object()["size"] as? Int == 0)
            #expect(
                try reply.object()["sha256"] as? String
                    == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
            )
        }
    }

    @Test func badHeadersAreRefusedWithAReason() async throws {
        try await withSandbox { sandbox in
            let missing = try await HTTP.send("PUT", sandbox.baseURL + "/uploads/cr/x", body: Data(count: 10))
            #expect(missing.status == 400)
            #expect((try missing.object()["error"] as? String)?.contains("Content-Range") == true)
            let backwards = try await put(sandbox, "x", range: "bytes 9-0/10", body: Data(count: 10))
            #expect(backwards.status == 400)
            _ = try await put(sandbox, "x", range: "bytes 0-4/10", body: Data(count: 5))
            let otherTotal = try await put(sandbox, "x", range: "bytes 5-9/20", body: Data(count: 5))
            #expect(otherTotal.status == 400)
        }
    }

    @Test func dropAtClosesMidChunkKeepsTheHalfAndResumes() async throws {
        try await withSandbox { sandbox in
            let file = Digests.sample(count: 300_000)
            let query = "?drop-at=2"
            let first = try await put(
                sandbox, "d", range: "bytes 0-99999/300000", body: file[0..<100_000], query: query)
            #expect(first.status == 308)
            await #expect(throws: (any Error).self) {
                _ = try await put(
                    sandbox,
                    "d",
                    range: "bytes 100000-199999/300000",
                    body: file[100_000..<200_000],
                    query: query
                )
            }
            let status = try await put(sandbox, "d", range: "bytes */300000", query: query)
            #expect(status.status == 308)
            #expect(status.headers["range"] == "bytes=0-149999")

            // Once only: the same chunk number is not dropped again.
            let rest = try await put(
                sandbox, "d", range: "bytes 150000-299999/300000", body: file[150_000...], query: query)
            #expect(rest.status == 200)
            #expect(try rest.object()["sha256"] as? String == (try await Digests.hex("sha256", of: file)))

            let dropped = try #require(sandbox.events().first { $0.method == "PUT" && $0.status == nil })
            #expect(dropped.bytesReceived >= 50_000)
        }
    }
}
