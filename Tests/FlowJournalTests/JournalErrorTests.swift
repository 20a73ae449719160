import FlowTestSupport
import Foundation
import Testing

@testable import FlowJournal

/// A journal that cannot work says so at `open`, before a run sends anything, naming the folder or
/// file and what to do; nothing crashes.
@Suite("Journal errors", .serialized)
struct JournalErrorTests {
    @Test(
        "a read-only state directory: a clear error at open",
        .enabled(if: FolderMounts.canMakeReadOnly, "this machine allows no read-only bind mount, chattr +i or chmod")
    )
    func readOnly() throws {
        let folder = try TemporaryFolder()
        let state = folder.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let undo = try #require(FolderMounts.makeReadOnly(state))
        // Undone before the folder is removed (a read-only folder cannot be emptied).
        defer { withExtendedLifetime(folder) { undo() } }
        let error = #expect(throws: JournalError.self) { try Journal.open(stateDirectory: state) }
        guard case .readOnly(let directory, _) = error else {
            Issue.record("not readOnly: \(String(describing: error))")
            return
        }
        #expect(directory == state)
        let message = try #require(error).description
        #expect(message.hasPrefix("state directory \(state) is not writable: "))
        #expect(message.hasSuffix("; use --state-dir or FLOW_STATE_DIR"))
        // A folder to create inside a read-only one fails the same way.
        #expect(throws: JournalError.self) { try Journal.open(stateDirectory: state + "/.flow") }
    }

    @Test(
        "a full disk: a clear error at open",
        .enabled(if: FolderMounts.canMountSmallDisk, "mounting a tmpfs needs root")
    )
    func fullAtOpen() throws {
        let folder = try TemporaryFolder()
        let disk = folder.path + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let unmount = try #require(FolderMounts.mountSmallDisk(disk, bytes: 256 * 1024))
        defer { withExtendedLifetime(folder) { unmount() } }
        // Fill it to the last byte.
        FolderMounts.shell("dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null")
        let error = #expect(throws: JournalError.self) { try Journal.open(stateDirectory: disk + "/.flow") }
        #expect(error == .full(disk + "/.flow") || error == .full(disk), "\(String(describing: error))")
        #expect(error?.description.contains("no space left") == true)
    }

    @Test(
        "a disk that fills during the run: the flush reports it, later flushes too, nothing crashes",
        .enabled(if: FolderMounts.canMountSmallDisk, "mounting a tmpfs needs root")
    )
    func fullDuringRun() async throws {
        let folder = try TemporaryFolder()
        let disk = folder.path + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let unmount = try #require(FolderMounts.mountSmallDisk(disk, bytes: 1024 * 1024))
        defer { withExtendedLifetime(folder) { unmount() } }
        let journal = try Journal.open(stateDirectory: disk)
        defer { journal.close() }
        let run = try journal.beginRun(
            NewRun(file: "/w/big.yaml", fileHash: "h", stepHashes: [:], inputs: [:], startedAt: Date()))
        let big = #"{"blob":""# + String(repeating: "x", count: 64 * 1024) + #""}"#
        var failure: JournalError?
        // 1 MiB fills after about 16 outputs of 64 KiB; bounded at 64.
        for index in 0..<64 where failure == nil {
            journal.record(
                .stepFinished(
                    run: run, step: "s\(index)", item: nil, state: .succeeded, attempts: 1, startedAt: Date(),
                    finishedAt: Date(), outputs: .json(big), error: nil))
            do { try await journal.flushed() } catch let error as JournalError { failure = error }
        }
        #expect(failure == .full(disk), "\(String(describing: failure))")
        await #expect(throws: JournalError.full(disk)) { try await journal.flushed() }
    }

    @Test("a file that is not a database: a clear error naming it")
    func corrupt() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/journal.sqlite"
        try Data(String(repeating: "this is not an SQLite database. ", count: 200).utf8).write(
            to: URL(fileURLWithPath: file))
        let error = #expect(throws: JournalError.self) { try Journal.open(stateDirectory: folder.path) }
        guard case .corrupt(let named, let reason) = error else {
            Issue.record("not corrupt: \(String(describing: error))")
            return
        }
        #expect(named == file)
        #expect(reason.contains("not a database"))
        #expect(error?.description.contains("move it away") == true)
        #expect(throws: JournalError.corrupt(file, reason: reason)) {
            try Journal.openForReading(stateDirectory: folder.path)
        }
    }

    @Test("a state directory that is a file: a clear error")
    func stateDirectoryIsAFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/file"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let error = #expect(throws: JournalError.self) { try Journal.open(stateDirectory: path) }
        #expect(error?.description.contains("is a file, not a folder") == true)
    }
}
