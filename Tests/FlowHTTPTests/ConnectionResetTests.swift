import FlowHTTP
import FlowTasks
import FlowTestSupport
import Testing

@Suite struct ConnectionResetTests {
    @Test func serverClosingMidUploadIsATransientConnectionReset() async throws {
        let folder = try TemporaryFolder()
        let size = 1_000_000
        let file = try folder.write(Array(repeating: 0x5A, count: size), to: "chunk.bin")
        try await withSandbox { sandbox, client in
            // The sandbox closes the connection halfway through this upload's first chunk, once.
            let request = HTTPRequest(
                method: "PUT",
                url: sandbox.baseURL + "/uploads/cr/reset-test",
                query: [("drop-at", "1")],
                headers: ["Content-Range": "bytes 0-\(size - 1)/\(size)"],
                body: .file(path: file, offset: 0, length: Int64(size))
            )
            let error = try #require(await httpError(client.execute(request)))
            #expect(error.kind == .connectionReset, "\(error)")
            #expect(error.isTransient)
            #expect(error.message.contains("/uploads/cr/reset-test"))

            // The server still knows the upload and says how far it got.
            let status = HTTPRequest(
                method: "PUT",
                url: sandbox.baseURL + "/uploads/cr/reset-test",
                headers: ["Content-Range": "bytes */\(size)"]
            )
            let answer = try await client.execute(status).value
            #expect(answer.status == 308)
        }
    }
}
