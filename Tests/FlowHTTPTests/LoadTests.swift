import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// The heavy tests, one at a time, so the memory measurement does not see the thousand
/// concurrent requests' buffers.
@Suite(.serialized) struct LoadTests {
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
            // Sampled while the body moves: a body loaded whole and freed at the end would not
            // show in a measurement taken afterwards.
            let peak = PeakMemory()
            let answer = try json(
                try await client.execute(request) {
                    progress.record($0)
                    peak.sample()
                }.value)
            let growth = max(peak.value, try residentMemory()) - before
            #expect(answer["bytes"] as? Int == size)
            #expect(answer["sha256"] as? String == expected)
            // Under ThreadSanitizer resident memory says little: its shadow memory grows with every
            // fresh allocation, the in-process server's buffers included. The plain run checks it.
            if !underThreadSanitizer {
                #expect(growth < 20_000_000, "resident memory grew by up to \(growth) bytes sending 50 MB")
            }
            // Reports travel through their own queue and may land just after the response.
            #expect(await eventually { progress.last()?.bytesSent == Int64(size) })
            #expect(progress.last()?.totalToSend == Int64(size))
            #expect(progress.count() > 2, "progress reported along the way")
        }
    }

    @Test func aThousandConcurrentRequestsAllAnswerCorrectly() async throws {
        try await withSandbox { sandbox, client in
            let futures = (0..<1000).map { index in
                client.execute(HTTPRequest(url: sandbox.baseURL + "/bytes/\(index)"))
            }
            var wrong: [Int] = []
            for (index, future) in futures.enumerated() {
                let response = try await future.value
                if response.status != 200 || response.body != Array(repeating: UInt8(ascii: "x"), count: index) {
                    wrong.append(index)
                }
            }
            #expect(wrong.isEmpty, "wrong answers for \(wrong.prefix(10))")
            let events = sandbox.events()
            #expect(events.count == 1000)
            #expect(events.allSatisfy { $0.status == 200 && !$0.clientDisconnected })
        }
    }
}

/// The highest resident memory seen by `sample()`.
final class PeakMemory: Sendable {
    private let peak = LockedBox(0)

    func sample() {
        guard let current = try? residentMemory() else { return }
        peak.withLock { $0 = max($0, current) }
    }

    var value: Int { peak.withLock { $0 } }
}
