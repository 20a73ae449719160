import Foundation
import Testing

/// `flow run` uploading to tuspyserver, an independent tus 1.0.0 implementation from PyPI started
/// by `scripts/tus-peer` (which makes its virtual environment on first use).
@Suite(.serialized) struct TusPeerTests {
    @Test func anUploadToTuspyserverIsStoredByteForByte() async throws {
        let peer = try await TusPeer.start()
        defer { peer.stop() }
        let data = Self.randomBytes(3_000_017)
        let file = peer.folder.appendingPathComponent("report.csv")
        try data.write(to: file)
        let workflow = try peer.write(
            """
            version: 1
            steps:
              send:
                upload:
                  file: \(file.path)
                  url: \(peer.url)
                  protocol: tus
                  chunk-size: 256KiB
                  metadata: { owner: flow-tests }
                outputs:
                  where: ${{ result.location }}
                  sha: ${{ result.sha256 }}
              show:
                needs: send
                run: echo "stored at ${{ steps.send.outputs.where }} sha ${{ steps.send.outputs.sha }}"
            """)
        let outcome = try await FlowProcess.run(["run", workflow])
        #expect(outcome.exitCode == 0, "\(outcome.stdout)\(outcome.stderr)")
        let stored = try peer.storedUploads()
        #expect(stored.count == 1)
        guard let id = stored.first else { return }
        #expect(try Data(contentsOf: peer.files.appendingPathComponent(id)) == data)
        #expect(outcome.stdout.contains("stored at \(peer.url)\(id)"), "\(outcome.stdout)")
        // tuspyserver keeps the metadata it was given: filename and filetype (which its HEAD needs) and ours.
        let info = try String(contentsOf: peer.files.appendingPathComponent(id + ".info"), encoding: .utf8)
        #expect(info.contains("report.csv") && info.contains("text/csv") && info.contains("flow-tests"), "\(info)")
    }

    @Test func aCancelledUploadIsTerminatedOnTuspyserver() async throws {
        let peer = try await TusPeer.start()
        defer { peer.stop() }
        let file = peer.folder.appendingPathComponent("big.bin")
        // 256 MiB of zeros without holding them: a sparse file.
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 256 * 1024 * 1024)
        try handle.close()
        let workflow = try peer.write(
            """
            version: 1
            steps:
              send:
                timeout: 1s
                upload: { file: \(file.path), url: \(peer.url), protocol: tus, chunk-size: 64KiB }
            """)
        let outcome = try await FlowProcess.run(["run", workflow])
        #expect(outcome.exitCode == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stdout.contains("deleting the partial upload at \(peer.url)"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("(tus termination)"))
        // flow waited for the DELETE before it exited: nothing is left on the server.
        #expect(try peer.storedUploads().isEmpty)
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// One tuspyserver on a free loopback port, storing uploads in a temporary folder.
struct TusPeer {
    let process: Process
    let folder: URL
    let files: URL
    let url: String

    static func start() async throws -> TusPeer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-tus-\(UUID().uuidString)")
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        // A port nothing listens on now: bound by the suite's listener, then released.
        let listener = try LoopbackListener()
        let port = Int(listener.port)
        listener.close()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = repository.appendingPathComponent("scripts/tus-peer")
        process.arguments = [String(port), files.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: "/dev/stderr")
        try process.run()
        let peer = TusPeer(process: process, folder: folder, files: files, url: "http://127.0.0.1:\(port)/files/")
        // The first start may make the virtual environment (pip install): allow a few minutes.
        for _ in 0..<1800 {
            if Self.accepts(port) { return peer }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        peer.stop()
        throw PeerError(message: "tuspyserver did not start on port \(port) (see scripts/tus-peer)")
    }

    /// Whether something accepts connections on the loopback port.
    static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    func write(_ yaml: String) throws -> String {
        let path = folder.appendingPathComponent("workflow-\(UUID().uuidString).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The ids of the uploads the server holds (each is a data file next to its `.info`).
    func storedUploads() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: files.path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".info") }
    }

    func stop() {
        if process.isRunning {
            // SIGKILL: the test process may hand its children a signal mask that blocks SIGTERM.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

struct PeerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
