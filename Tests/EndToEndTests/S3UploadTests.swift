import FlowDigest
import Foundation
import Testing

/// `upload` with `protocol: s3` against moto's server (`scripts/s3-peer`): every object checked
/// byte for byte by boto3, faults injected by `Tests/Peers/fault_proxy.py` between flow and moto,
/// and `kill -9` in a loop followed by `--resume`.
@Suite(.serialized, .s3Peer) struct S3UploadTests {
    /// A folder with a file to upload and a workflow that uploads it to `bucket/key`.
    struct Case {
        let folder: URL
        let file: URL
        let workflow: URL
        let state: String
        let bucket: String
        let key: String

        init(
            _ name: String, size: Int, endpoint: String, keys upload: String = "", stepKeys: String = ""
        ) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("flow-s3-\(name)-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            file = folder.appendingPathComponent("object.bin")
            try Self.randomFile(size).write(to: file)
            bucket = "flow-\(name)"
            key = "dir/\(name).bin"
            workflow = folder.appendingPathComponent("upload.yaml")
            state = folder.appendingPathComponent("state").path
            let text = """
                version: 1
                steps:
                  put:
                \(stepKeys.isEmpty ? "" : "    " + stepKeys + "\n")    upload:
                      file: object.bin
                      url: \(endpoint)/\(bucket)/\(key)
                      protocol: s3
                \(upload.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
                    outputs:
                      sha256: ${{ result.sha256 }}
                  show:
                    needs: put
                    run: echo "sha256 ${{ steps.put.outputs.sha256 }}"

                """
            try text.write(to: workflow, atomically: true, encoding: .utf8)
        }

        var sha256: String { SHA256.hash(data: (try? Data(contentsOf: file)) ?? Data()).hexString }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }

        /// Random bytes from the system's generator, a page at a time (fast enough for 200 MiB).
        static func randomFile(_ size: Int) -> Data {
            var data = Data(count: size)
            data.withUnsafeMutableBytes { bytes in
                var generator = SystemRandomNumberGenerator()
                let words = bytes.bindMemory(to: UInt64.self)
                for index in words.indices { words[index] = generator.next() }
                for index in (words.count * 8)..<size { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
            }
            return data
        }
    }

    /// A `Case` uploading to moto through a fault proxy injecting `faults` (see `fault_proxy.py`),
    /// its bucket made; the caller stops the proxy and removes the case when done.
    static func throughFaults(
        _ name: String, size: Int, faults: [String], keys: String = "", stepKeys: String = ""
    ) async throws -> (peer: S3Peer, proxy: FaultProxy, test: Case) {
        let peer = try S3Peer.required()
        let proxy = try await FaultProxy.start(
            to: peer.port, faults: faults, folder: FileManager.default.temporaryDirectory)
        do {
            let test = try Case(
                name, size: size, endpoint: "http://127.0.0.1:\(proxy.port)", keys: keys, stepKeys: stepKeys)
            do {
                try await peer.createBucket(test.bucket)
                return (peer, proxy, test)
            } catch {
                test.remove()
                throw error
            }
        } catch {
            proxy.stop()
            throw error
        }
    }

    @Test(.timeLimit(.minutes(2))) func partsGoInParallelAndTheObjectIsTheFileByteForByte() async throws {
        let peer = try S3Peer.required()
        let test = try Case(
            "parallel", size: 21 * 1024 * 1024 + 123, endpoint: peer.endpoint,
            keys: "chunk-size: 5MiB\nchunks-in-flight: 3\nstorage-class: STANDARD_IA\nmetadata: { owner: ci }")
        defer { test.remove() }
        try await peer.createBucket(test.bucket)
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("sha256 \(test.sha256)"), "\(run.stdout)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    @Test(.timeLimit(.minutes(2))) func theKeysOfAnAWSProfileSignTheUploadAndAreNeverPrinted() async throws {
        let peer = try S3Peer.required()
        let test = try Case("profile", size: 6 * 1024 * 1024 + 7, endpoint: peer.endpoint)
        defer { test.remove() }
        try await peer.createBucket(test.bucket)
        let credentials = test.folder.appendingPathComponent("credentials")
        try """
        [default]
        aws_access_key_id = \(peer.keys.accessKeyID)
        aws_secret_access_key = \(peer.keys.secretAccessKey)
        """.write(to: credentials, atomically: true, encoding: .utf8)
        var environment = peer.environment
        environment["AWS_ACCESS_KEY_ID"] = ""
        environment["AWS_SECRET_ACCESS_KEY"] = ""
        environment["AWS_PROFILE"] = ""
        environment["AWS_SHARED_CREDENTIALS_FILE"] = credentials.path
        environment["AWS_CONFIG_FILE"] = test.folder.appendingPathComponent("no-config").path
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state, "--log-format", "plain"], environment: environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
        #expect(!(run.stdout + run.stderr).contains(peer.keys.secretAccessKey))
    }

    @Test(.timeLimit(.minutes(2))) func withoutAPartSizeFlowChoosesOneAndTheDryRunSaysSo() async throws {
        let peer = try S3Peer.required()
        let test = try Case(
            "chosen", size: 9 * 1024 * 1024 + 7, endpoint: peer.endpoint, keys: "checksum: md5\ncontent-type: text/csv")
        defer { test.remove() }
        let dry = try await FlowProcess.run(["run", test.workflow.path, "--dry-run"], environment: peer.environment)
        #expect(dry.exitCode == 0, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stdout.contains("upload s3 POST+PUT"), "\(dry.stdout)")
        #expect(
            dry.stdout.contains(
                "(9437191 bytes): 2 parts × 8MiB (chosen from the file's size), last 1048583B, 4 in flight"),
            "\(dry.stdout)")
        try await peer.createBucket(test.bucket)
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        #expect(run.exitCode == 0, "\(run.stdout)\(run.stderr)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    /// Parts are streamed from the file, never held: 4 parts of 16 MiB in flight stay below the
    /// 64 MiB they would add in memory to flow's own 40 (peak resident memory, VmHWM, read while
    /// flow runs).
    @Test(.timeLimit(.minutes(2))) func fourPartsOf16MiBInFlightPeakUnder64MiB() async throws {
        let peer = try S3Peer.required()
        let test = try Case(
            "memory", size: 128 * 1024 * 1024, endpoint: peer.endpoint, keys: "chunk-size: 16MiB\nchunks-in-flight: 4")
        defer { test.remove() }
        try await peer.createBucket(test.bucket)
        let child = try FlowChild(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        var peak = 0
        let status = await child.exitCode(within: .seconds(90)) { peak = max(peak, child.peakMemory ?? 0) }
        #expect(status == 0, "\(child.output)\(child.errors)")
        #expect(peak > 0 && peak <= 64 << 20, "peak \(peak >> 20) MiB")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    @Test func aPartSizeS3RefusesIsAnErrorBeforeAnythingRuns() async throws {
        let test = try Case("small", size: 10, endpoint: "http://127.0.0.1:9", keys: "chunk-size: 1MiB")
        defer { test.remove() }
        let run = try await FlowProcess.run(["validate", test.workflow.path])
        #expect(run.exitCode != 0)
        #expect(run.stderr.contains("an S3 part must be 5MiB to 5GiB"), "\(run.stderr)")
        #expect(run.stderr.contains("upload.yaml:"), "\(run.stderr)")
    }

    /// A part cut mid-body, a part whose answer is lost (after moto stored it), and a Complete
    /// whose answer is lost: each is sent again, and the object is still the file.
    @Test(
        .timeLimit(.minutes(2)),
        arguments: [
            ["chunk=2:cut:1000000"], ["chunk=3:reset:10"], ["chunk=2:drop-response"], ["chunk=5:drop-response"],
        ])
    func faultsBetweenFlowAndMotoAreRecoveredFrom(_ faults: [String]) async throws {
        // 4 parts: chunk=5 is the CompleteMultipartUpload (a POST with a body).
        let (peer, proxy, test) = try await Self.throughFaults(
            "fault\(faults[0].split(separator: ":")[0].dropFirst(6))\(faults[0].split(separator: ":")[1])",
            size: 17 * 1024 * 1024, faults: faults, keys: "chunk-size: 5MiB\nchunks-in-flight: 2")
        defer { proxy.stop(); test.remove() }
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        #expect(run.exitCode == 0, "\(faults): \(run.stdout)\(run.stderr)")
        #expect(proxy.lines().contains { $0.contains("fault") }, "\(proxy.lines())")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    /// S3 may answer a Complete with 200 and an `<Error>` body: the step fails, saying so, with
    /// the server's text escaped.
    @Test(.timeLimit(.minutes(2))) func aCompleteAnswered200WithAnErrorFailsTheStep() async throws {
        let (peer, proxy, test) = try await Self.throughFaults(
            "error200", size: 6 * 1024 * 1024, faults: ["chunk=3:error-200"],
            keys: "chunk-size: 5MiB\nchunks-in-flight: 1")
        defer { proxy.stop(); test.remove() }
        let run = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        #expect(run.exitCode == 1, "\(run.stdout)\(run.stderr)")
        let output = run.stdout + run.stderr
        #expect(output.contains("answered 200 with an error: InvalidPart"), "\(output)")
        #expect(!output.contains("\u{1B}[31m"), "\(output)")
        let missing = try await peer.tool(["missing", test.bucket, test.key])
        #expect(missing.status == 0, "\(missing.output)")
    }

    /// A part that stalls: the step's `timeout` cancels it, and without a journal the multipart
    /// upload is aborted (ListParts then finds no such upload).
    @Test(.timeLimit(.minutes(2))) func aStalledPartTimesOutAndTheUploadIsAborted() async throws {
        let (peer, proxy, test) = try await Self.throughFaults(
            "stall", size: 6 * 1024 * 1024, faults: ["chunk=1:stall:100000"],
            keys: "chunk-size: 5MiB\nchunks-in-flight: 1", stepKeys: "timeout: 2s")
        defer { proxy.stop(); test.remove() }
        let run = try await FlowProcess.run(["run", test.workflow.path, "--no-journal"], environment: peer.environment)
        #expect(run.exitCode != 0, "\(run.stdout)\(run.stderr)")
        let output = run.stdout + run.stderr
        let id = try #require(
            output.firstMatch(of: /aborting the multipart upload (\S+)/).map { String($0.1) }, "\(output)")
        let parts = try await peer.tool(["list-parts", test.bucket, test.key, id])
        #expect(parts.status != 0 && parts.output.contains("NoSuchUpload"), "\(parts.output)")
    }

    /// The parts are hashed while CreateMultipartUpload is on its way, a whole window ahead: with
    /// its answer held 3 s by the proxy (a slow link), flow has read the first `chunks-in-flight`
    /// parts of the file before any part is sent, so they all go out as soon as the answer comes.
    @Test(.timeLimit(.minutes(2))) func partsAreHashedWhileTheUploadIsCreated() async throws {
        let partSize = 5 * 1024 * 1024
        let (peer, proxy, test) = try await Self.throughFaults(
            "ahead", size: 4 * partSize, faults: ["post=1:hold:3000"], keys: "chunk-size: 5MiB\nchunks-in-flight: 4")
        defer { proxy.stop(); test.remove() }
        let child = try FlowChild(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        /// Bytes the child has read so far (`rchar` of /proc/PID/io: the file's reads for hashing).
        func bytesRead() -> Int {
            let io = (try? String(contentsOfFile: "/proc/\(child.pid)/io", encoding: .utf8)) ?? ""
            let line = io.split(separator: "\n").first { $0.hasPrefix("rchar:") }
            return line.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) } ?? 0
        }
        let held = await FlowChild.wait(for: .seconds(30)) { proxy.lines().contains { $0.contains("fault hold") } }
        #expect(held, "\(proxy.lines())")
        let hashed = await FlowChild.wait(for: .seconds(2)) { bytesRead() >= 4 * partSize }
        let putsMeanwhile = proxy.lines().filter { $0.contains(" PUT ") }.count
        #expect(hashed, "read \(bytesRead()) bytes while Create was held")
        #expect(putsMeanwhile == 0, "\(proxy.lines())")
        let status = await child.exitCode(within: .seconds(60))
        #expect(status == 0, "\(child.output)\(child.errors)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    /// `kill -9` five times while a 200 MiB file goes up, each time `--resume`: the object is the
    /// file, and moto was sent each byte at most once more than the parts in flight at each kill.
    @Test(.timeLimit(.minutes(3))) func killNineFiveTimesThenResumeSendsOnlyWhatIsMissing() async throws {
        let size = 200 * 1024 * 1024
        let partSize = 5 * 1024 * 1024
        let inFlight = 4
        let (peer, proxy, test) = try await Self.throughFaults(
            "kill", size: size, faults: [], keys: "chunk-size: 5MiB\nchunks-in-flight: \(inFlight)")
        defer { proxy.stop(); test.remove() }
        /// The part requests moto was sent so far, and their bytes.
        func parts() -> (count: Int, bytes: Int) {
            let lengths = proxy.lines().filter { $0.contains(" PUT ") }.compactMap {
                Int($0.split(separator: " ").last ?? "")
            }
            return (lengths.count, lengths.reduce(0, +))
        }
        var kills = 0
        var arguments = ["run", test.workflow.path, "--state-dir", test.state]
        while kills < 5 {
            let before = parts().count
            let child = try FlowChild(arguments, environment: peer.environment)
            // Killed once three more parts went out: the upload is recorded, parts are in flight.
            let going = await FlowChild.wait(for: .seconds(30)) { parts().count >= before + 3 }
            kill(child.pid, SIGKILL)
            _ = await child.exitCode(within: .seconds(10))
            #expect(going, "no progress: \(child.output)\(child.errors)")
            kills += 1
            arguments = ["run", test.workflow.path, "--state-dir", test.state, "--resume"]
        }
        let last = try await FlowProcess.run(arguments, environment: peer.environment)
        #expect(last.exitCode == 0, "\(last.stdout)\(last.stderr)")
        #expect(last.stderr.contains("continuing the multipart upload") || last.stdout.contains("continuing"))
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
        let sent = parts().bytes
        #expect(sent <= size + kills * inFlight * partSize, "\(sent) bytes sent for \(size) after \(kills) kills")
    }

    /// A file that changed since the interrupted run starts over, saying so: its size and
    /// modification time, or, when both were put back, a part's checksum.
    @Test(.timeLimit(.minutes(2))) func aChangedFileStartsOverWithAMessage() async throws {
        let (peer, proxy, test) = try await Self.throughFaults(
            "changed", size: 16 * 1024 * 1024, faults: ["chunk=3:stall:1000"],
            keys: "chunk-size: 5MiB\nchunks-in-flight: 1")
        defer { proxy.stop(); test.remove() }
        let child = try FlowChild(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        // Two parts confirmed, the third stalled: kill it there.
        let stalled = await FlowChild.wait(for: .seconds(30)) { proxy.lines().contains { $0.contains("fault stall") } }
        #expect(stalled)
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        // Rewrite the first part's bytes in place, then put the modification time back.
        let path = test.file.path
        let before = try FileManager.default.attributesOfItem(atPath: path)
        var info = stat()
        stat(path, &info)
        let handle = try FileHandle(forWritingTo: test.file)
        try handle.write(contentsOf: Data(repeating: 7, count: 4096))
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(
            try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
                == before[.modificationDate] as? Date)
        let resumed = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state, "--resume"], environment: peer.environment)
        #expect(resumed.exitCode == 0, "\(resumed.stdout)\(resumed.stderr)")
        let output = resumed.stdout + resumed.stderr
        #expect(
            output.contains("is not what the interrupted run uploaded (the server's part 1 has another"),
            "\(output)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }

    /// A resumed upload starts over (a part the server holds is not the file's any more) while a
    /// part it sent for the interrupted upload is still on its way. That part's late answer
    /// belongs to the abandoned upload: it used to be counted for the new upload's part of the
    /// same number, whose request was then taken as done while still in flight, so Complete went
    /// out before that part had reached the server.
    @Test(.timeLimit(.minutes(2)))
    func aPartOfTheAbandonedUploadAnsweringLateIsNotTakenForTheNewOne() async throws {
        // First run: part 1 stalls (chunk 1) while parts 2–4 go through. After the resume: the
        // old upload's part 1 (chunk 5) is answered after a second; the new upload's part 1
        // (chunk 6) reaches moto only after two, so the late answer arrives while it is on its way.
        let faults = ["chunk=1:stall:1000", "chunk=5:hold:1000", "chunk=6:delay:2000"]
        let (peer, proxy, test) = try await Self.throughFaults(
            "startover", size: 20 * 1024 * 1024, faults: faults,
            keys: "chunk-size: 5MiB\nchunks-in-flight: 2")
        defer { proxy.stop(); test.remove() }
        let child = try FlowChild(
            ["run", test.workflow.path, "--state-dir", test.state], environment: peer.environment)
        let sent = await FlowChild.wait(for: .seconds(30)) { proxy.lines().filter { $0.contains(" PUT ") }.count >= 4 }
        #expect(sent)
        // Parts 2–4 answered and recorded, part 1 still stalled.
        try await Task.sleep(for: .seconds(1))
        kill(child.pid, SIGKILL)
        _ = await child.exitCode(within: .seconds(10))
        // Part 3's bytes changed in place, the size and modification time kept.
        let path = test.file.path
        var info = stat()
        stat(path, &info)
        let handle = try FileHandle(forWritingTo: test.file)
        try handle.seek(toOffset: 10 * 1024 * 1024)
        try handle.write(contentsOf: Data(repeating: 7, count: 4096))
        try handle.close()
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let resumed = try await FlowProcess.run(
            ["run", test.workflow.path, "--state-dir", test.state, "--resume"], environment: peer.environment)
        let output = resumed.stdout + resumed.stderr
        #expect(resumed.exitCode == 0, "\(output)")
        let message = "is not what the interrupted run uploaded (the server's part 3 has another"
        #expect(output.contains(message), "\(output)")
        try await peer.expectObject(test.bucket, test.key, equals: test.file)
    }
}
