import Foundation

/// Real read-only and full folders for the error tests, made the way the machine allows.
///
/// Permission bits do not stop root, so as root a folder is made read-only by a read-only bind
/// mount (EROFS), else by `chattr +i` (EPERM); as another user by `chmod 555`. A full disk is a
/// small tmpfs filled to the last byte, which needs root (mount). Each returns nil when the machine
/// allows none of its ways, and the tests that need them are disabled with that reason.
enum FolderMounts {
    static let isRoot = getuid() == 0

    /// Runs a command; whether it exited 0.
    @discardableResult
    static func shell(_ command: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Makes `path` read-only; returns how to undo it, nil when no way worked.
    static func makeReadOnly(_ path: String) -> (() -> Void)? {
        if !isRoot {
            return shell("chmod 555 '\(path)'") ? { shell("chmod 755 '\(path)'") } : nil
        }
        if shell("mount --bind '\(path)' '\(path)' && mount -o remount,ro,bind '\(path)'") {
            return { shell("umount '\(path)'") }
        }
        shell("umount '\(path)'")
        if shell("chattr +i '\(path)'") { return { shell("chattr -i '\(path)'") } }
        return nil
    }

    /// Mounts a tmpfs of `bytes` on `path`; returns how to unmount it, nil when mounting is not allowed.
    static func mountSmallDisk(_ path: String, bytes: Int) -> (() -> Void)? {
        guard isRoot, shell("mount -t tmpfs -o size=\(bytes) tmpfs '\(path)'") else { return nil }
        return { shell("umount '\(path)'") }
    }

    /// Whether this machine can make a read-only folder (tried once on a scratch folder).
    static let canMakeReadOnly: Bool = probe { makeReadOnly($0) }
    /// Whether this machine can mount a small tmpfs.
    static let canMountSmallDisk: Bool = probe { mountSmallDisk($0, bytes: 256 * 1024) }

    private static func probe(_ attempt: (String) -> (() -> Void)?) -> Bool {
        let path = NSTemporaryDirectory() + "flow-journal-probe-\(UUID().uuidString)"
        guard (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil else {
            return false
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let undo = attempt(path) else { return false }
        undo()
        return true
    }
}
