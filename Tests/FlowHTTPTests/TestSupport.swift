import FlowHTTP
import FlowSandbox
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// Runs `body` against a fresh in-process sandbox on an ephemeral port, then stops it.
func withSandbox<T>(_ body: (Sandbox, HTTPClient) async throws -> T) async throws -> T {
    let sandbox = try await Sandbox.start()
    let client = HTTPClient()
    do {
        let result = try await body(sandbox, client)
        client.shutdown()
        await sandbox.stop()
        return result
    } catch {
        client.shutdown()
        await sandbox.stop()
        throw error
    }
}

/// The `HTTPError` a future failed with; records an issue when it succeeded or failed otherwise.
func httpError(
    _ future: Future<HTTPResponse>,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> HTTPError? {
    do {
        let response = try await future.value
        Issue.record("expected an HTTPError, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch let error as HTTPError {
        return error
    } catch {
        Issue.record("expected an HTTPError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The response body parsed as a JSON object.
func json(_ response: HTTPResponse) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    guard let dictionary = object as? [String: Any] else {
        throw TestFailure("the body is not a JSON object: \(response.text)")
    }
    return dictionary
}

/// The output and status of a finished command.
struct CommandOutcome {
    var status: Int32
    var output: String
}

/// Runs `executable` with `arguments` to the end without blocking a thread while it runs.
func runCommand(_ executable: String, _ arguments: [String]) async throws -> CommandOutcome {
    let child = try ChildProcess.start(executable, arguments)
    var output: [UInt8] = []
    while true {
        output += child.readAvailable()
        var status: Int32 = 0
        if waitpid(child.pid, &status, WNOHANG) == child.pid {
            output += child.readAvailable()
            return CommandOutcome(status: (status >> 8) & 0xFF, output: String(decoding: output, as: UTF8.self))
        }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// The SHA-256 of a file, in hex, as `sha256sum` computes it (an independent implementation).
func sha256OfFile(_ path: String) async throws -> String {
    let outcome = try await runCommand("/usr/bin/sha256sum", [path])
    guard outcome.status == 0, let hash = outcome.output.split(separator: " ").first else {
        throw TestFailure("sha256sum failed on \(path)")
    }
    return String(hash)
}

/// A loopback port nothing listens on: bound, then released.
func closedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestFailure("socket() failed") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard bound == 0 else { throw TestFailure("bind() failed") }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard named == 0 else { throw TestFailure("getsockname() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// This process's resident memory in bytes, from /proc/self/status.
func residentMemory() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { throw TestFailure("no VmRSS in /proc/self/status") }
    return kilobytes * 1024
}

/// Whether this test binary runs under ThreadSanitizer (its runtime exports `__tsan_init`).
/// A nil handle is glibc's RTLD_DEFAULT: search the whole process.
let underThreadSanitizer: Bool = dlsym(nil, "__tsan_init") != nil

/// A loopback port whose listener never accepts and whose queue is full, so new connections hang
/// in the handshake (the kernel drops their SYNs). Close the descriptors when done.
func saturatedListener() throws -> (port: Int, descriptors: [Int32]) {
    let listening = try ListeningSocket(backlog: 0)
    var address = ListeningSocket.address(port: listening.port)
    var descriptors = [listening.descriptor]
    // A backlog of 0 still queues a connection or two; these take the places.
    for _ in 0..<3 {
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard filler >= 0 else { continue }
        descriptors.append(filler)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
    return (listening.port, descriptors)
}
