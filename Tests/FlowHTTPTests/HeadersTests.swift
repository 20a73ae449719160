import FlowHTTP
import Testing

@Suite struct HeadersTests {
    @Test func lookupIgnoresCaseAndKeepsEveryValueInOrder() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "text/plain"]
        headers.add("set-cookie", "b=2")
        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["missing"] == nil)
        #expect(headers.map(\.name) == ["Set-Cookie", "Content-Type", "set-cookie"])
        headers.set("SET-cookie", "c=3")
        #expect(headers.values(for: "set-cookie") == ["c=3"])
        #expect(headers.count == 2)
    }

    @Test func queryIsPercentEncodedOntoTheURL() {
        let request = HTTPRequest(url: "http://h/p?x=1#frag", query: [("a b", "ü/&="), ("empty", "")])
        #expect(request.fullURL == "http://h/p?x=1&a%20b=%C3%BC%2F%26%3D&empty=#frag")
        #expect(HTTPRequest(url: "http://h/p", query: [("k", "v")]).fullURL == "http://h/p?k=v")
        #expect(HTTPRequest(url: "http://h/p").fullURL == "http://h/p")
    }

    @Test func transientKindsAreConnectionFailuresAndTimeouts() {
        let transient = HTTPError.Kind.allCases.filter {
            HTTPError(kind: $0, message: "", url: "http://h/").isTransient
        }
        #expect(Set(transient) == [.connect, .connectionReset, .timeout])
    }
}
