import OAuth1
import Testing

@Suite("Stage 4: base string URI")
struct BaseStringURITests {
  @Test(arguments: [
    ("HTTPS://API.X.com:443/2/Tweets?ids=1#top", "https://api.x.com/2/Tweets"),
    ("http://user:pass@example.com:8080", "http://example.com:8080/"),
    ("http://example.com/a%2fb/%7E?x", "http://example.com/a%2fb/%7E"),
    ("http://example.com/a b/é", "http://example.com/a%20b/%C3%A9"),
    ("http://[2001:0DB8:0000:0000:0000:0000:0000:0001]:80/", "http://[2001:db8::1]/"),
    ("http://[::ffff:1.2.3.4]/", "http://[::ffff:1.2.3.4]/"),
    ("http://[1:0:0:2:0:0:0:3]/", "http://[1:0:0:2::3]/"),
    ("https://example.com:/", "https://example.com/"),
  ])
  func normalizes(url: String, expected: String) throws {
    #expect(try OAuthBaseStringURI.make(url: url) == expected)
  }

  @Test func aHostHeaderReplacesTheAuthority() throws {
    #expect(try OAuthBaseStringURI.make(url: "http://internal:8080/x", host: "Public.Example.com") == "http://public.example.com/x")
    #expect(try OAuthBaseStringURI.make(url: "https://internal/x", host: "api.example.com:8443") == "https://api.example.com:8443/x")
  }

  @Test func badURLsThrowTypedErrors() {
    #expect(throws: OAuthError.relativeURL("/2/users/me")) { try OAuthBaseStringURI.make(url: "/2/users/me") }
    #expect(throws: OAuthError.relativeURL("api.x.com/2")) { try OAuthBaseStringURI.make(url: "api.x.com/2") }
    #expect(throws: OAuthError.missingHost("http://")) { try OAuthBaseStringURI.make(url: "http://") }
    #expect(throws: OAuthError.missingHost("mailto:a@b")) { try OAuthBaseStringURI.make(url: "mailto:a@b") }
    #expect(throws: OAuthError.invalidPort(url: "http://h:0/", port: "0")) { try OAuthBaseStringURI.make(url: "http://h:0/") }
    #expect(throws: OAuthError.invalidPort(url: "http://h:123456/", port: "123456")) { try OAuthBaseStringURI.make(url: "http://h:123456/") }
    #expect(throws: OAuthError.malformedURL(url: "http://[1:2/", reason: "the IPv6 address has no closing \"]\"")) {
      try OAuthBaseStringURI.make(url: "http://[1:2/")
    }
    #expect(throws: OAuthError.malformedURL(url: "http://[1::2::3]/", reason: "\"[1::2::3]\" is not an IPv6 address")) {
      try OAuthBaseStringURI.make(url: "http://[1::2::3]/")
    }
  }

  @Test func signingAcceptsHTTPOnly() {
    for url in ["javascript:alert(1)", "file:///etc/passwd", "ftp://example.com/"] {
      let scheme = String(url.prefix { $0 != ":" })
      #expect(throws: OAuthError.unsupportedScheme(url: url, scheme: scheme)) { try OAuthURLComponents(url, requireHTTP: true) }
    }
  }

  @Test func componentsKeepTheRawQuery() throws {
    let components = try OAuthURLComponents("https://h/p?a=%2B+b&c")
    #expect(components.query == "a=%2B+b&c")
    #expect(try OAuthURLComponents("https://h/p").query == nil)
    #expect(try OAuthURLComponents("https://h/p?").query == "")
  }
}
