import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

@Suite struct BodyTests {
    @Test(arguments: [(0, 100_000), (12_345, 70_001), (199_999, 1), (5, 0)])
    func fileRangeArrivesByteExact(offset: Int, length: Int) async throws {
        let folder = try TemporaryFolder()
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let file = try folder.write(bytes, to: "whole.bin")
        let expectedFile = try folder.write(Array(bytes[offset..<offset + length]), to: "range.bin")
        let expected = try await sha256OfFile(expectedFile)
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(
                method: "PUT",
                url: sandbox.baseURL + "/sink",
                body: .file(path: file, offset: Int64(offset), length: Int64(length))
            )
            let answer = try json(try await client.execute(request).value)
            #expect(answer["bytes"] as? Int == length)
            #expect(answer["sha256"] as? String == expected)
        }
    }

    @Test func inMemoryBytesArriveByteExact() async throws {
        let folder = try TemporaryFolder()
        let bytes = (0..<65_537).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let expected = try await sha256OfFile(try folder.write(bytes, to: "body.bin"))
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(method: "POST", url: sandbox.baseURL + "/sink", body: .bytes(bytes))
            let answer = try json(try await client.execute(request).value)
            #expect(answer["bytes"] as? Int == bytes.count)
            #expect(answer["sha256"] as? String == expected)
        }
    }

    @Test func downloadProgressIsReported() async throws {
        try await withSandbox { sandbox, client in
            let progress = ProgressLog()
            let request = HTTPRequest(url: sandbox.baseURL + "/bytes/3000000")
            let response = try await client.execute(request) { progress.record($0) }.value
            #expect(response.body.count == 3_000_000)
            #expect(await eventually { progress.last()?.bytesReceived == 3_000_000 })
            #expect(progress.last()?.totalToReceive == 3_000_000)
            #expect(progress.last()?.bytesSent == 0)
        }
    }

    @Test func missingFileIsAnInvalidRequest() async throws {
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(
                method: "PUT", url: sandbox.baseURL + "/sink",
                body: .file(path: "/nonexistent/file", offset: 0, length: 1))
            let error = try #require(await httpError(client.execute(request)))
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("/nonexistent/file"))
            #expect(sandbox.events().isEmpty, "nothing was sent")
        }
    }

    @Test func rangeBeyondTheFileIsAnInvalidRequest() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Array(repeating: 7, count: 100), to: "small.bin")
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(
                method: "PUT", url: sandbox.baseURL + "/sink", body: .file(path: file, offset: 50, length: 51))
            let error = try #require(await httpError(client.execute(request)))
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("100 bytes"))
        }
    }

    @Test func responseBodyOverTheLimitFails() async throws {
        try await withSandbox { sandbox, client in
            let request = HTTPRequest(url: sandbox.baseURL + "/bytes/5000", maxResponseBodySize: 4096)
            let error = try #require(await httpError(client.execute(request)))
            #expect(error.kind == .bodyTooLarge)
            #expect(error.message.contains("4096 bytes"))
            let fits = try await client.execute(
                HTTPRequest(url: sandbox.baseURL + "/bytes/4096", maxResponseBodySize: 4096)
            ).value
            #expect(fits.body == Array(repeating: UInt8(ascii: "x"), count: 4096))
            let head = HTTPRequest(method: "HEAD", url: sandbox.baseURL + "/bytes/5000", maxResponseBodySize: 4096)
            let headers = try await client.execute(head).value
            #expect(headers.status == 200, "HEAD announces a size but sends no body")
            #expect(headers.headers["content-length"] == "5000")
        }
    }
}

/// Progress reports collected from the client's progress queue.
final class ProgressLog: Sendable {
    private let reports = LockedBox<[HTTPProgress]>([])

    func record(_ progress: HTTPProgress) {
        reports.withLock { $0.append(progress) }
    }

    func last() -> HTTPProgress? { reports.withLock { $0.last } }

    func count() -> Int { reports.withLock { $0.count } }
}
