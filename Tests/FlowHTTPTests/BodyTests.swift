import FlowHTTP
import FlowTasks
import Foundation
import Synchronization
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

    @Test func fiftyMegabyteFileStreamsWithFlatMemory() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/big.bin"
        let size = 50_000_000
        let written = try await runCommand(
            "/usr/bin/dd", ["if=/dev/urandom", "of=\(file)", "bs=1000000", "count=50", "status=none"])
        #expect(written.status == 0)
        let expected = try await sha256OfFile(file)
        try await withSandbox { sandbox, client in
            let before = try residentMemory()
            let request = HTTPRequest(
                method: "PUT", url: sandbox.baseURL + "/sink", body: .file(path: file, offset: 0, length: Int64(size)))
            let progress = ProgressLog()
            let answer = try json(try await client.execute(request, progress: { progress.record($0) }).value)
            let growth = try residentMemory() - before
            #expect(answer["bytes"] as? Int == size)
            #expect(answer["sha256"] as? String == expected)
            #expect(growth < 20_000_000, "resident memory grew by \(growth) bytes sending 50 MB")
            // Reports travel through their own queue and may land just after the response.
            #expect(try await eventually { progress.last()?.bytesSent == Int64(size) })
            #expect(progress.last()?.totalToSend == Int64(size))
            #expect(progress.count() > 2, "progress reported along the way")
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
        }
    }
}

/// Progress reports collected from the client's progress queue.
final class ProgressLog: Sendable {
    private let reports = Mutex<[HTTPProgress]>([])

    func record(_ progress: HTTPProgress) {
        reports.withLock { $0.append(progress) }
    }

    func last() -> HTTPProgress? { reports.withLock { $0.last } }

    func count() -> Int { reports.withLock { $0.count } }
}
