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
}

/// The client runs requests on easy handles kept from finished ones (`EasyHandlePool`): a handle
/// that took part in the cookie jar is not kept, so a later request that does not use the jar
/// never sends its cookies.
@Suite struct EasyHandleReuseTests {
    @Test func aRequestWithoutTheJarSendsNoCookieAfterOneWithIt() async throws {
        try await withSandbox { sandbox, client in
            var login = HTTPRequest(
                method: "POST", url: sandbox.baseURL + "/session/login",
                body: .bytes(Array(#"{"user": "demo", "password": "s3cret"}"#.utf8)))
            login.headers.set("Content-Type", "application/json")
            login.transport.cookies = true
            let loggedIn = try await client.execute(login).value
            #expect(loggedIn.status == 200)
            var withJar = HTTPRequest(url: sandbox.baseURL + "/me")
            withJar.transport.cookies = true
            let withoutJar = HTTPRequest(url: sandbox.baseURL + "/me")
            for _ in 0..<3 {
                let sent = try await client.execute(withJar).value
                let unsent = try await client.execute(withoutJar).value
                #expect(sent.status == 200)
                #expect(unsent.status == 401)
            }
        }
    }
}
