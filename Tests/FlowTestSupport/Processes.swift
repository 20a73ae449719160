import Foundation

/// Whether `pid` is a live process; a zombie (killed, waiting for a parent that may be a
/// container's non-reaping init) counts as gone.
public func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
    return state != "Z" && state != "X"
}

/// The kernel's names of this process's threads (`/proc/self/task/*/comm`), as `top -H`, gdb and
/// crash reports show them.
public func threadNamesOfThisProcess() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
