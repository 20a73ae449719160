import FlowHTTP
import FlowTasks
import FlowTestSupport
import Foundation
import Testing

/// An upload's chunk sent from memory it reuses (`HTTPBody.reused`) is shown to its observer from
/// that memory, after curl sent it: the upload's hashing then overlaps the server's reading of the
/// chunk instead of holding the bytes back before they go out (issue 32).
@Suite struct ReusedBodyObserverTests {
    @Test func theObserverSeesTheBodysOwnMemoryInOrderBeforeTheAnswer() async throws {
        let count = 150_000
        let bytes = ReusableBytes(capacity: count)
        for index in 0..<count { bytes.mutableBytes[index] = UInt8(truncatingIfNeeded: index &* 13 &+ index >> 8) }
        let base = UInt(bitPattern: bytes.mutableBytes.baseAddress!)
        let seen = LockedBox<[(offset: Int64, count: Int, inBody: Bool)]>([])
        let observed = try await withSandbox { sandbox, client in
            var request = HTTPRequest(method: "PUT", url: sandbox.baseURL + "/sink", body: .reused(bytes, count: count))
            request.bodyObserver = { offset, piece in
                let start = UInt(bitPattern: piece.baseAddress!)
                seen.withLock { $0.append((offset, piece.count, start == base + UInt(offset))) }
            }
            let answer = try json(try await client.execute(request).value)
            #expect(answer["bytes"] as? Int == count)
            return seen.withLock { $0.reduce(0) { $0 + $1.count } }
        }
        #expect(observed == count, "every byte was observed before the request's future completed")
        let pieces = seen.withLock { $0 }
        var next: Int64 = 0
        for piece in pieces {
            #expect(piece.offset == next, "pieces in order: \(pieces)")
            next = piece.offset + Int64(piece.count)
        }
        #expect(pieces.allSatisfy { $0.inBody }, "the observer sees the body's memory, not a copy: \(pieces)")
    }

    /// curl hands a body over a piece per `curl_multi_perform` (64 KiB): the observer sees a body
    /// of up to 1 MiB once, after its last piece, so its hashing never holds back the rest of the
    /// body between two pieces (issue 32, round seven).
    @Test func aBodyUpToOneMebibyteIsObservedOnceAfterItsLastPiece() async throws {
        let count = 300_000
        let bytes = ReusableBytes(capacity: count)
        for index in 0..<count { bytes.mutableBytes[index] = UInt8(truncatingIfNeeded: index &* 7) }
        let seen = LockedBox<[(offset: Int64, count: Int)]>([])
        try await withSandbox { sandbox, client in
            var request = HTTPRequest(method: "PUT", url: sandbox.baseURL + "/sink", body: .reused(bytes, count: count))
            request.bodyObserver = { offset, piece in seen.withLock { $0.append((offset, piece.count)) } }
            let answer = try json(try await client.execute(request).value)
            #expect(answer["bytes"] as? Int == count)
        }
        let pieces = seen.withLock { $0 }
        #expect(pieces.count == 1, "one piece, the whole body: \(pieces)")
        #expect(pieces.first?.offset == 0 && pieces.first?.count == count, "\(pieces)")
    }
}
