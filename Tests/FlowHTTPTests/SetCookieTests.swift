import FlowHTTP
import Testing

/// `Set-Cookie` parsed as RFC 6265 section 5.2 says a user agent must.
@Suite struct SetCookieTests {
    @Test func attributesAreReadInAnyCaseAndTheLastRepeatedOneWins() throws {
        let cookie = try #require(
            SetCookie(" id = a b ;PATH=/x; path=/y;DOMAIN=.Example.COM; max-age=-5; secure;HttpOnly ; SameSite=Strict"))
        #expect(cookie.name == "id" && cookie.value == "a b")
        #expect(cookie.path == "/y" && cookie.domain == "example.com" && cookie.maxAge == -5)
        #expect(cookie.secure && cookie.httpOnly && cookie.sameSite == "Strict")
    }

    @Test func formsTheRFCIgnoresAreLeftOut() throws {
        #expect(SetCookie("no-equals-sign; Path=/") == nil)
        #expect(SetCookie("=value") == nil)
        let cookie = try #require(SetCookie("a=\"q\"; Max-Age=1e3; Path=relative; Domain=; Unknown=1"))
        #expect(cookie.value == "\"q\"")
        #expect(cookie.maxAge == nil && cookie.path == nil && cookie.domain == nil)
        #expect(!cookie.secure && !cookie.httpOnly && cookie.expires == nil && cookie.sameSite == nil)
        #expect(try #require(SetCookie("a=")).value == "")
    }
}
