import Foundation
import Testing

/// `flow run` uploading through a fault-injecting proxy (`Tests/Peers/fault_proxy.py`) to two
/// servers nobody here wrote: tuspyserver (tus) and gcp-storage-emulator (Content-Range, Google's
/// resumable upload). Each case cuts, resets or loses one exchange of a five-chunk upload and
/// checks what the server stored and what flow said.
@Suite(.serialized) struct UploadFaultTests {
    /// 1 MiB + 5 bytes: five chunks of 256 KiB, the last one 5 bytes.
    static let size = 1_048_581

    enum PeerKind: String, CaseIterable, Sendable { case tus, gcs }

    /// What a run through the proxy left: flow's outcome, the proxy's log, the stored bytes.
    struct Run {
        let outcome: FlowProcess.Outcome
        /// The proxy's log (see `FaultProxy.lines`).
        let lines: [String]
        let data: Data
        let stored: Data?
        /// `flow run --resume` after the first run, when asked for; its proxy log lines follow `lines`.
        var resumed: FlowProcess.Outcome?
        var output: String { outcome.stdout + outcome.stderr }
    }

    @Test(arguments: PeerKind.allCases)
    func aChunkCutMidBodyIsResumedFromTheServersOffset(_ peer: PeerKind) async throws {
        let run = try await upload(to: peer, faults: ["chunk=2:cut:1000"])
        #expect(run.outcome.exitCode == 0, "\(run.output)")
        #expect(run.stored == run.data)
        #expect(run.output.contains("asking the server how much it holds"), "\(run.output)")
    }

    @Test(arguments: PeerKind.allCases)
    func aConnectionResetBeforeTheBodyIsResumed(_ peer: PeerKind) async throws {
        let run = try await upload(to: peer, faults: ["chunk=3:reset:0"])
        #expect(run.outcome.exitCode == 0, "\(run.output)")
        #expect(run.stored == run.data)
    }

    /// A chunk the server stored but whose answer was lost, on a reused keep-alive connection:
    /// libcurl would send it again at once by itself (a stale offset, which the GCS emulator
    /// refuses with 400); flow must ask the server first, and say so.
    @Test(arguments: PeerKind.allCases)
    func aLostAnswerOnAReusedConnectionIsFollowedByAQueryNotAResend(_ peer: PeerKind) async throws {
        let run = try await upload(to: peer, faults: ["chunk=2:drop-response"])
        #expect(run.outcome.exitCode == 0, "\(run.output)")
        #expect(run.stored == run.data)
        let lines = run.lines
        guard let fault = lines.first(where: { $0.hasSuffix("fault drop-response") }),
            let number = fault.split(separator: " ").first.flatMap({ Int($0) })
        else {
            Issue.record("no fault in \(lines)")
            return
        }
        let faulted = lines.first { $0.hasPrefix("\(number) conn=") } ?? ""
        #expect(faulted.contains("reused=1"), "the dropped chunk went out on a reused connection: \(lines)")
        let next = lines.first { $0.hasPrefix("\(number + 1) conn=") } ?? ""
        #expect(next.contains(" HEAD ") || next.contains("bytes */"), "after the lost answer: \(lines)")
        #expect(run.output.contains("asking the server how much it holds"), "\(run.output)")
    }

    /// The last chunk's answer is lost. tuspyserver still answers HEAD with the full offset; the
    /// GCS emulator has finished the object and forgets the session (404): flow says the upload
    /// may be complete and how to check, rather than just "404".
    @Test(arguments: PeerKind.allCases)
    func aLostFinalAnswerIsResolvedOrReportedAsPossiblyComplete(_ peer: PeerKind) async throws {
        let run = try await upload(to: peer, faults: ["chunk=5:drop-response"])
        #expect(run.stored == run.data)
        switch peer {
        case .tus:
            #expect(run.outcome.exitCode == 0, "\(run.output)")
        case .gcs:
            #expect(run.outcome.exitCode == 1, "\(run.output)")
            #expect(run.output.contains("the answer to the last chunk was lost"), "\(run.output)")
            #expect(run.output.contains("the upload may be complete"), "\(run.output)")
            #expect(run.output.contains("it should have \(Self.size) bytes, sha256 "), "\(run.output)")
            #expect(run.output.contains("md5Hash "), "\(run.output)")
        }
    }

    /// The same lost final answer, then `--resume`: the GCS session is gone (404 to asking), and
    /// its URL is the session, so starting over there cannot work. The resume says what the first
    /// run said — the upload may be complete, with the size and hashes to check — and sends no chunk.
    @Test func aResumeAfterALostFinalAnswerSaysTheUploadMayBeComplete() async throws {
        let run = try await upload(to: .gcs, faults: ["chunk=5:drop-response"], resume: true)
        #expect(run.outcome.exitCode == 1, "\(run.output)")
        let resumed = try #require(run.resumed)
        let output = resumed.stdout + resumed.stderr
        #expect(resumed.exitCode == 1, "\(output)")
        #expect(!output.contains("starting it over"), "\(output)")
        #expect(output.contains("the upload may be complete"), "\(output)")
        #expect(output.contains("it should have \(Self.size) bytes, sha256 "), "\(output)")
        #expect(output.contains("md5Hash "), "\(output)")
        let chunks = run.lines.filter { $0.contains(" PUT bytes ") && !$0.contains("bytes */") }
        #expect(chunks.count == 5, "no chunk sent again: \(run.lines)")
        #expect(run.stored == run.data)
    }

    /// A byte flipped on the way: the emulator stores the same size, but its `md5Hash` differs.
    @Test func aCorruptedChunkFailsOnTheServersMD5Hash() async throws {
        let run = try await upload(to: .gcs, faults: ["chunk=2:corrupt:100"])
        #expect(run.outcome.exitCode == 1, "\(run.output)")
        #expect(run.output.contains("the server stored a file with md5Hash "), "\(run.output)")
    }

    /// A status query answered 200 with `Range: bytes=0-0` after the only chunk's answer was lost:
    /// the server claims completion while holding 1 byte of the file.
    @Test func aQueryAnsweredDoneButHoldingLessFailsTheStep() async throws {
        let run = try await upload(to: .gcs, faults: ["chunk=1:drop-response", "query=1:fake-done"], size: 100_000)
        #expect(run.outcome.exitCode == 1, "\(run.output)")
        #expect(run.output.contains("holds only 1 of 100000 bytes"), "\(run.output)")
    }

    // MARK: Running

    private func upload(
        to kind: PeerKind, faults: [String], size: Int = UploadFaultTests.size, resume: Bool = false
    ) async throws -> Run {
        let data = TusPeerTests.randomBytes(size)
        switch kind {
        case .tus:
            let peer = try await TusPeer.start()
            defer { peer.stop() }
            let proxy = try await FaultProxy.start(
                to: Int(URL(string: peer.url)!.port!), faults: faults, folder: peer.folder)
            defer { proxy.stop() }
            let file = peer.folder.appendingPathComponent("data.bin")
            try data.write(to: file)
            let workflow = try peer.write(
                """
                version: 1
                steps:
                  send:
                    upload:
                      file: \(file.path)
                      url: http://127.0.0.1:\(proxy.port)/files/
                      protocol: tus
                      chunk-size: 256KiB
                """)
            let outcome = try await FlowProcess.run(["run", workflow])
            let stored = try peer.storedUploads().first.flatMap {
                try? Data(contentsOf: peer.files.appendingPathComponent($0))
            }
            return Run(outcome: outcome, lines: proxy.lines(), data: data, stored: stored)
        case .gcs:
            let peer = try await GCSPeer.start()
            defer { peer.stop() }
            let proxy = try await FaultProxy.start(to: peer.port, faults: faults, folder: peer.folder)
            defer { proxy.stop() }
            let file = peer.folder.appendingPathComponent("data.bin")
            try data.write(to: file)
            let workflow = peer.folder.appendingPathComponent("workflow.yaml")
            // The session is created by an `http` step; its Location is the upload's URL.
            try """
            version: 1
            steps:
              session:
                http:
                  method: POST
                  url: http://127.0.0.1:\(proxy.port)/upload/storage/v1/b/flow-tests/o?uploadType=resumable&name=data.bin
                outputs:
                  url: ${{ result.headers.location }}
              send:
                needs: session
                upload:
                  file: \(file.path)
                  url: ${{ steps.session.outputs.url }}
                  protocol: content-range
                  chunk-size: 256KiB
            """.write(to: workflow, atomically: true, encoding: .utf8)
            let outcome = try await FlowProcess.run(["run", workflow.path])
            let resumed = resume ? try await FlowProcess.run(["run", workflow.path, "--resume"]) : nil
            return Run(
                outcome: outcome, lines: proxy.lines(), data: data, stored: peer.object("data.bin"), resumed: resumed)
        }
    }
}
