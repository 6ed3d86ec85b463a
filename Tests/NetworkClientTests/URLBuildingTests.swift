import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

@Suite("Building requests")
struct URLBuildingTests {
  func url(_ base: String, _ path: String, _ query: [QueryItem] = []) throws -> String {
    let client = NetworkClient(baseURL: URL(string: base)!, transport: StubTransport())
    return try client.prepare(Request<Data>(path: path, query: query)).url.absoluteString
  }

  @Test(arguments: [
    ("https://api.x.com/2/", "users/me", "https://api.x.com/2/users/me"),
    ("https://api.x.com/2", "users/me", "https://api.x.com/2/users/me"),
    ("https://api.x.com/2/", "/users/me", "https://api.x.com/2/users/me"),
    ("https://api.x.com", "/2/users/me", "https://api.x.com/2/users/me"),
    ("https://api.x.com/", "2/users/me", "https://api.x.com/2/users/me"),
    ("http://127.0.0.1:8080", "/2/tweets", "http://127.0.0.1:8080/2/tweets"),
    ("http://[::1]:8080/base/", "x", "http://[::1]:8080/base/x"),
    ("https://api.x.com", "", "https://api.x.com/"),
    ("https://api.x.com/2", "", "https://api.x.com/2"),
    ("https://api.x.com/2", "search/a b/é", "https://api.x.com/2/search/a%20b/%C3%A9"),
  ])
  func joinsBaseAndPath(base: String, path: String, expected: String) throws {
    #expect(try url(base, path) == expected)
  }

  @Test func queryIsEncodedStrictlyAndKeepsDuplicates() throws {
    let joined = try url("https://api.x.com/2", "tweets/search/recent", [("query", "a+b * c"), ("ids", "1"), ("ids", "2"), ("flag", nil)])
    #expect(joined == "https://api.x.com/2/tweets/search/recent?query=a%2Bb%20%2A%20c&ids=1&ids=2&flag")
  }

  @Test func bodiesAreEncodedWithTheirContentType() throws {
    let client = NetworkClient(baseURL: api, transport: StubTransport())
    let form = try client.prepare(Request<Data>(method: .post, path: "x", body: .form([("status", "Hello + world!"), ("a", "1")])))
    #expect(form.body == Data("status=Hello%20%2B%20world%21&a=1".utf8))
    #expect(form.headers["content-type"] == "application/x-www-form-urlencoded")

    struct Post: Encodable, Sendable { let text: String }
    let json = try client.prepare(Request<Data>(method: .post, path: "tweets", body: .json(Post(text: "hi"))))
    #expect(json.body == Data(#"{"text":"hi"}"#.utf8))
    #expect(json.headers["Content-Type"] == "application/json")

    let raw = try client.prepare(
      Request<Data>(method: .put, path: "x", headers: ["Content-Type": "text/csv"], body: .data(Data("a,b".utf8), contentType: "text/plain")))
    #expect(raw.headers["Content-Type"] == "text/csv", "the request's own header wins")
    #expect(raw.timeout == 30)
    #expect(raw.isIdempotent)
    #expect(try !client.prepare(Request<Data>(method: .post, path: "x")).isIdempotent)
    #expect(try client.prepare(Request<Data>(method: .post, path: "x", isIdempotent: true)).isIdempotent)
  }

  @Test func unencodableJSONIsAnInvalidRequest() {
    struct Bad: Encodable, Sendable {
      func encode(to encoder: any Encoder) throws { throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no")) }
    }
    let client = NetworkClient(baseURL: api, transport: StubTransport())
    #expect {
      try client.prepare(Request<Data>(method: .post, path: "x", body: .json(Bad())))
    } throws: { error in
      guard case .invalidRequest(let reason) = error as? NetworkError else { return false }
      return reason.contains("the JSON body (Bad) does not encode")
    }
  }

  @Test func headersAreCaseInsensitiveAndOrdered() {
    var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
    headers["accept"] = "b"
    headers.add(name: "X-One", value: "2")
    #expect(headers["ACCEPT"] == "b")
    #expect(headers.fields.map(\.name) == ["accept", "X-One", "X-One"])
    #expect(headers.values(for: "x-one") == ["1", "2"])
    headers["x-one"] = nil
    #expect(!headers.contains("X-One"))
  }
}
