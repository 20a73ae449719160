import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite struct SandboxCommandTests {
    @Test func sandboxPrintsItsPortAnswersHealthAndStopsOnSIGTERM() async throws {
        let process = Process()
        process.executableURL = FlowProcess.binary
        process.arguments = ["sandbox", "--port", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The first line arrives before any request can be made; read it byte by byte up to the newline.
        var line = Data()
        while line.last != UInt8(ascii: "\n") {
            let byte = try output.fileHandleForReading.read(upToCount: 1) ?? Data()
            if byte.isEmpty { break }
            line.append(byte)
        }
        let first = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .newlines)
        #expect(first.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(first.split(separator: ":").last ?? ""))
        #expect(port > 0)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/health"))
        let session = URLSession(configuration: .ephemeral)
        let (body, response) = try await session.data(from: url)
        session.finishTasksAndInvalidate()
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":"ok"}"#)

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
