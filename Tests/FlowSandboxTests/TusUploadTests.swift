import FlowSandbox
import Foundation
import Testing

@Suite struct TusUploadTests {
    private let tus = ["Tus-Resumable": "1.0.0"]

    private func create(_ sandbox: Sandbox, length: Int, query: String = "") async throws -> String {
        let reply = try await HTTP.send(
            "POST",
            sandbox.baseURL + "/uploads/tus\(query)",
            headers: tus.merging(["Upload-Length": "\(length)", "Upload-Metadata": "filename ZGF0YS5iaW4=,filetype"]) {
                $1
            }
        )
        #expect(reply.status == 201)
        #expect(reply.headers["tus-resumable"] == "1.0.0")
        return try #require(reply.headers["location"])
    }

    private func patch(_ location: String, offset: Int, body: Data, headers: [String: String] = [:]) async throws
        -> Reply
    {
        try await HTTP.send(
            "PATCH",
            location,
            headers: tus.merging(
                ["Upload-Offset": "\(offset)", "Content-Type": "application/offset+octet-stream"].merging(headers) {
                    $1
                }
            ) { $1 },
            body: body
        )
    }

    @Test func optionsAdvertisesVersionExtensionsAndChecksums() async throws {
        try await withSandbox { sandbox in
            let reply = try await HTTP.send("OPTIONS", sandbox.baseURL + "/uploads/tus")
            #expect(reply.status == 204)
            #expect(reply.headers["tus-version"] == "1.0.0")
            #expect(reply.headers["tus-extension"] == "creation,checksum,termination")
            #expect(reply.headers["tus-checksum-algorithm"] == "sha1,sha256")
            #expect(Int(reply.headers["tus-max-size"] ?? "") ?? 0 > 1 << 30)
            #expect(reply.headers["tus-resumable"] == nil)
        }
    }

    @Test func createHeadPatchToCompletion() async throws {
        try await withSandbox { sandbox in
            let file = Digests.sample(count: 150_000)
            let location = try await create(sandbox, length: file.count)
            #expect(location.hasPrefix(sandbox.baseURL + "/uploads/tus/"))

            let fresh = try await HTTP.send("HEAD", location, headers: tus)
            #expect(fresh.status == 200)
            #expect(fresh.headers["upload-offset"] == "0")
            #expect(fresh.headers["upload-length"] == "150000")
            #expect(fresh.headers["cache-control"] == "no-store")
            #expect(fresh.headers["tus-resumable"] == "1.0.0")
            #expect(fresh.headers["upload-metadata"] == "filename ZGF0YS5iaW4=,filetype")

            let first = try await patch(location, offset: 0, body: file[0..<100_000])
            #expect(first.status == 204)
            #expect(first.headers["upload-offset"] == "100000")
            let last = try await patch(location, offset: 100_000, body: file[100_000...])
            #expect(last.status == 204)
            #expect(last.headers["upload-offset"] == "150000")

            let id = try #require(location.split(separator: "/").last)
            let info = try await HTTP.send("GET", sandbox.baseURL + "/uploads/tus/\(id)/info")
            #expect(try info.object()["complete"] as? Bool == true)
            #expect(try info.object()["sha256"] as? String == (try await Digests.hex("sha256", of: file)))
        }
    }

    @Test func checksumsAreVerifiedPerChunk() async throws {
        try await withSandbox { sandbox in
            let file = Digests.sample(count: 2_000)
            let location = try await create(sandbox, length: file.count)
            let chunk = file[0..<1_000]
            let wrong = try await Digests.base64("sha1", of: file[1_000...])
            let mismatch = try await patch(
                location, offset: 0, body: chunk, headers: ["Upload-Checksum": "sha1 \(wrong)"])
            #expect(mismatch.status == 460)
            #expect(mismatch.headers["tus-resumable"] == "1.0.0")
            let after = try await HTTP.send("HEAD", location, headers: tus)
            #expect(after.headers["upload-offset"] == "0")

            let sha1 = try await Digests.base64("sha1", of: chunk)
            let good = try await patch(location, offset: 0, body: chunk, headers: ["Upload-Checksum": "sha1 \(sha1)"])
            #expect(good.status == 204)
            let sha256 = try await Digests.base64("sha256", of: file[1_000...])
            let rest = try await patch(
                location,
                offset: 1_000,
                body: file[1_000...],
                headers: ["Upload-Checksum": "sha256 \(sha256)"]
            )
            #expect(rest.status == 204)
            #expect(rest.headers["upload-offset"] == "2000")

            let unknown = try await patch(
                location, offset: 2_000, body: Data(), headers: ["Upload-Checksum": "md5 AAAA"])
            #expect(unknown.status == 400)
        }
    }

    @Test func protocolErrorsUseTheCodesTheSpecificationNames() async throws {
        try await withSandbox { sandbox in
            let noVersion = try await HTTP.send(
                "POST", sandbox.baseURL + "/uploads/tus", headers: ["Upload-Length": "5"])
            #expect(noVersion.status == 412)
            #expect(noVersion.headers["tus-version"] == "1.0.0")
            let oldVersion = try await HTTP.send(
                "POST",
                sandbox.baseURL + "/uploads/tus",
                headers: ["Upload-Length": "5", "Tus-Resumable": "0.2.2"]
            )
            #expect(oldVersion.status == 412)
            let noLength = try await HTTP.send("POST", sandbox.baseURL + "/uploads/tus", headers: tus)
            #expect(noLength.status == 400)

            let location = try await create(sandbox, length: 10)
            let wrongType = try await patch(
                location, offset: 0, body: Data(count: 5), headers: ["Content-Type": "text/plain"])
            #expect(wrongType.status == 415)
            let wrongOffset = try await patch(location, offset: 3, body: Data(count: 5))
            #expect(wrongOffset.status == 409)
            #expect(wrongOffset.headers["upload-offset"] == "0")
            let tooLong = try await patch(location, offset: 0, body: Data(count: 11))
            #expect(tooLong.status == 400)

            let missing = try await HTTP.send("HEAD", sandbox.baseURL + "/uploads/tus/no-such-upload", headers: tus)
            #expect(missing.status == 404)
            #expect(missing.headers["tus-resumable"] == "1.0.0")
            let missingPatch = try await patch(sandbox.baseURL + "/uploads/tus/no-such-upload", offset: 0, body: Data())
            #expect(missingPatch.status == 404)
        }
    }

    @Test func metadataMustBeUniqueKeysWithBase64Values() async throws {
        try await withSandbox { sandbox in
            for metadata in ["filename a b c", "filename ZGF0YQ==,filename ZGF0YQ==", "filename not*base64", ""] {
                let reply = try await HTTP.send(
                    "POST",
                    sandbox.baseURL + "/uploads/tus",
                    headers: tus.merging(["Upload-Length": "5", "Upload-Metadata": metadata]) { $1 }
                )
                #expect(reply.status == 400, "Upload-Metadata: \(metadata)")
            }
        }
    }

    @Test func methodOverrideTurnsAPostIntoAPatch() async throws {
        try await withSandbox { sandbox in
            let location = try await create(sandbox, length: 4)
            let reply = try await HTTP.send(
                "POST",
                location,
                headers: tus.merging([
                    "X-HTTP-Method-Override": "PATCH",
                    "Upload-Offset": "0",
                    "Content-Type": "application/offset+octet-stream",
                ]) { $1 },
                body: Data("abcd".utf8)
            )
            #expect(reply.status == 204)
            #expect(reply.headers["upload-offset"] == "4")
        }
    }

    @Test func terminationRemovesTheUpload() async throws {
        try await withSandbox { sandbox in
            let location = try await create(sandbox, length: 100)
            _ = try await patch(location, offset: 0, body: Data(count: 40))
            let deleted = try await HTTP.send("DELETE", location, headers: tus)
            #expect(deleted.status == 204)
            #expect(deleted.headers["tus-resumable"] == "1.0.0")
            #expect(try await HTTP.send("HEAD", location, headers: tus).status == 404)
            #expect(try await patch(location, offset: 40, body: Data(count: 10)).status == 404)
            #expect(try await HTTP.send("DELETE", location, headers: tus).status == 404)
        }
    }

    @Test func dropAtKeepsTheHalfAndHeadReportsExactlyWhatArrived() async throws {
        try await withSandbox { sandbox in
            let file = Digests.sample(count: 300_000)
            let location = try await create(sandbox, length: file.count, query: "?drop-at=2")
            #expect(try await patch(location, offset: 0, body: file[0..<100_000]).status == 204)
            await #expect(throws: (any Error).self) {
                _ = try await patch(location, offset: 100_000, body: file[100_000..<200_000])
            }
            let head = try await HTTP.send("HEAD", location, headers: tus)
            #expect(head.headers["upload-offset"] == "150000")

            // A client trusting its own offset is refused; one asking the server finishes byte-exact.
            #expect(try await patch(location, offset: 200_000, body: file[200_000...]).status == 409)
            let rest = try await patch(location, offset: 150_000, body: file[150_000...])
            #expect(rest.status == 204)
            #expect(rest.headers["upload-offset"] == "300000")
            let id = try #require(location.split(separator: "/").last)
            let info = try await HTTP.send("GET", sandbox.baseURL + "/uploads/tus/\(id)/info")
            #expect(try info.object()["sha256"] as? String == (try await Digests.hex("sha256", of: file)))
        }
    }
}
