import FlowAWS
import Foundation
import Testing

/// flow's signer against every case of AWS's SigV4 test suite (vendored in `aws4_testsuite`,
/// see its README.md): the canonical request, the string to sign and the `Authorization` header.
struct AWS4TestSuiteTests {
    static let folder = Bundle.module.url(forResource: "aws4_testsuite", withExtension: nil)!
    /// 2015-08-30T12:36:00Z, the suite's instant.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)

    /// Each case's path below the suite's folder (`get-vanilla`, `normalize-path/get-space`, …).
    static let cases: [String] = {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var found: [String] = []
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "req" else { continue }
            found.append(String(file.deletingLastPathComponent().path.dropFirst(folder.path.count + 1)))
        }
        return found.sorted()
    }()

    @Test func theSuiteHasAllItsCases() {
        #expect(Self.cases.count == 34, "\(Self.cases)")
    }

    @Test(arguments: cases) func signsAsTheSuiteSays(_ name: String) throws {
        let base = Self.folder.appendingPathComponent(name).appendingPathComponent((name as NSString).lastPathComponent)
        func read(_ suffix: String) throws -> String {
            try String(contentsOf: base.appendingPathExtension(suffix), encoding: .utf8)
                .replacingOccurrences(of: "\r", with: "")
        }
        let request = RawRequest(try read("req"))
        let canonical = try read("creq")
        // As botocore's runner: a case whose canonical request signs a token was signed with it.
        let token = canonical.split(separator: "\n").first { $0.hasPrefix("x-amz-security-token:") }
            .map { String($0.dropFirst("x-amz-security-token:".count)) }
        let signer = SigV4Signer(
            credentials: AWSCredentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                sessionToken: token),
            region: "us-east-1", service: "service")
        let host = request.headers.first { $0.name.lowercased() == "host" }?.value ?? ""
        let signature = try signer.sign(
            method: request.method, url: "https://\(host)\(request.path)", headers: request.headers,
            payload: .bytes(Array(request.body.utf8)), date: Self.date)
        #expect(signature.canonicalRequest == canonical)
        #expect(signature.stringToSign == (try read("sts")))
        #expect(signature.authorization == (try read("authz")))
    }

    /// A `.req` file: the request line (whose path may hold a space or UTF-8, as the suite
    /// writes them), headers (a line starting with white space continues the one before), a
    /// blank line, the body.
    struct RawRequest {
        var method: String
        var path: String
        var headers: [(name: String, value: String)] = []
        var body = ""

        init(_ text: String) {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
            let requestLine = lines.popFirst() ?? ""
            let words = requestLine.split(separator: " ")
            method = String(words.first ?? "")
            path = words.dropFirst().dropLast().joined(separator: " ")
            while let line = lines.popFirst(), !line.isEmpty {
                if line.first == " " || line.first == "\t", !headers.isEmpty {
                    headers[headers.count - 1].value += "\n" + line
                } else if let colon = line.firstIndex(of: ":") {
                    headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
                }
            }
            body = lines.joined(separator: "\n")
        }
    }
}
