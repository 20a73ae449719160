import FlowSandbox
import FlowTestSupport
import Foundation
import Testing

@Suite struct StreamingMemoryTests {
    /// Resident memory of this process (the in-process sandbox included), from /proc.
    private func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw TestFailure("no VmRSS in /proc/self/status") }
        return kilobytes * 1024
    }

    @Test func aLargeUploadIsStreamedToDiskNotHeldInMemory() async throws {
        try await withSandbox { sandbox in
            let total = 64 << 20
            let block = Digests.sample(count: 1 << 20)
            let connection = try await RawConnection.open(port: sandbox.port)
            defer { connection.close() }
            let before = try residentBytes()
            try await connection.write(
                "PUT /uploads/cr/big HTTP/1.1\r\nHost: x\r\nContent-Range: bytes 0-\(total - 1)/\(total)\r\n"
                    + "Content-Length: \(total)\r\n\r\n"
            )
            for _ in 0..<(total / block.count) { try await connection.write(block) }
            let reply = try await connection.readResponse()
            let growth = try residentBytes() - before
            #expect(reply?.status == 200)
            #expect(try reply?.object()["size"] as? Int == total)
            // The body is 64 MiB; holding it would grow the process by at least that much.
            #expect(growth < 32 << 20, "resident memory grew by \(growth >> 20) MiB")
        }
    }
}
