import FlowSandbox
import Foundation

/// What the sandbox saw in one run, made comparable with another run of the same workflow: each
/// request reduced to what must not differ (method, path, status, body bytes, position headers,
/// body), with what legitimately differs between two runs replaced by placeholders, and grouped
/// into sequences that keep their arrival order.
///
/// Requests of different steps interleave differently from run to run, so the whole log has no
/// order to compare. A sequence is the requests with one method and path and, when they carry no
/// position header, one body: a step's polls of a job, an upload session's chunks (with their
/// `Upload-Offset` or `Content-Range`), a download and its resumption (`Range`), a retried POST.
/// Two steps posting different bodies to one path (`/notify`) are two sequences.
struct ServerLog: Equatable, CustomStringConvertible {
    /// One request as compared.
    struct Request: Equatable, CustomStringConvertible {
        let method: String
        let path: String
        /// nil when no response was sent (a dropped connection, a cancelled race loser).
        let status: Int?
        /// The body bytes received; `?` for a request cut off mid-body, whose count depends on how
        /// the bytes happened to arrive, and `to the end` for the last chunk of a random payload
        /// whose length varies from run to run.
        let bytes: String
        /// `Content-Range`, `Range`, `Upload-Offset`, `Upload-Length`, as sent (normalised).
        let headers: [String: String]
        /// The body, normalised, when it was UTF-8 text; else its SHA-256, or only its size when
        /// the workflow makes it from random bytes.
        let body: String

        var description: String {
            let shown = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
            return "\(method) \(path) → \(status.map(String.init) ?? "none"), \(bytes) bytes"
                + (shown.isEmpty ? "" : " [\(shown)]") + (body.isEmpty ? "" : " body \(body.prefix(300))")
        }

        /// The sequence this request belongs to.
        var sequence: String {
            headers.isEmpty && !body.isEmpty ? "\(method) \(path) \(body)" : "\(method) \(path)"
        }
    }

    /// The sequences by key, each in arrival order.
    let sequences: [String: [Request]]

    /// Reads `events`; `ports` are the ports of this run's servers (they appear in upload URLs and
    /// in file names made from `services.X.port`); `randomPayload` when the workflow uploads bytes
    /// from /dev/urandom, whose digests (the sha256 values it sends about them, and each tus chunk's
    /// `Upload-Checksum`) differ per run,
    /// and whose length may too (a tar.gz of random bytes).
    init(_ events: [SandboxEvent], ports: [Int], randomPayload: Bool) {
        // A random payload's upload lengths, to recognise its last chunk.
        let lengths = Set(events.compactMap { $0.headers["Upload-Length"].flatMap { Int($0) } })
        var sequences: [String: [Request]] = [:]
        for event in events {
            let path = Self.normalise(event.path, ports: ports, randomPayload: randomPayload)
            let cut = event.status == nil
            var headers = event.headers
            var bytes = cut ? "?" : String(event.bytesReceived)
            if randomPayload {
                if headers["Upload-Length"] != nil { headers["Upload-Length"] = "<length>" }
                // A tus chunk's checksum is of its random bytes: keep its algorithm only.
                if let checksum = headers["Upload-Checksum"] {
                    headers["Upload-Checksum"] = "\(checksum.prefix { $0 != " " }) <checksum>"
                }
                if let offset = headers["Upload-Offset"].flatMap({ Int($0) }),
                    lengths.contains(offset + event.bytesReceived)
                {
                    bytes = "to the end"
                }
            }
            let body: String
            if cut {
                body = event.bytesReceived > 0 ? "<cut off>" : ""
            } else if let text = event.body {
                body = Self.normalise(text, ports: ports, randomPayload: randomPayload)
            } else if let digest = event.bodySHA256 {
                body = randomPayload ? "<random bytes>" : "sha256 \(digest)"
            } else {
                body = ""
            }
            let request = Request(
                method: event.method, path: path, status: event.status, bytes: bytes, headers: headers, body: body)
            sequences[request.sequence, default: []].append(request)
        }
        self.sequences = sequences
    }

    /// Every request, for a count.
    var count: Int { sequences.values.map(\.count).reduce(0, +) }

    var description: String {
        sequences.keys.sorted().map { key in
            sequences[key, default: []].map { "  \($0)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// The sequences that differ from `other`'s, each with both sides, for a failure message.
    func differences(from other: ServerLog) -> String {
        Set(sequences.keys).union(other.sequences.keys).sorted().compactMap { key in
            let mine = sequences[key, default: []]
            let theirs = other.sequences[key, default: []]
            guard mine != theirs else { return nil }
            return "\(key.prefix(200)):\n  plain run:\n" + mine.map { "    \($0)" }.joined(separator: "\n")
                + "\n  exported DAG:\n" + theirs.map { "    \($0)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Replaces what a server or a run makes up: upload ids and tokens (UUIDs), job numbers, the
    /// servers' ports, multipart boundaries (libcurl's, random), temporary folders, and, for a
    /// random payload, sha256 values.
    static func normalise(_ text: String, ports: [Int], randomPayload: Bool) -> String {
        var text = text.replacing(
            #/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/#, with: "<uuid>")
        text = text.replacing(#/\/jobs\/[0-9]+/#, with: "/jobs/<id>")
        text = text.replacing(#/-{2,}[0-9A-Za-z]{12,}/#, with: "<boundary>")
        text = text.replacing(#/\/tmp\/(flow-|argo-harness-)[^"\s,}]*/#, with: "<tmp>")
        for port in ports { text = text.replacingOccurrences(of: ":\(port)", with: ":<port>") }
        if randomPayload { text = text.replacing(#/[0-9a-f]{64}/#, with: "<sha256>") }
        return text
    }
}
