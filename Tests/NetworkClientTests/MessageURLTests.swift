import Foundation
import NetworkClient
import NetworkClientTesting
import Testing

/// Messages name a request by its endpoint and a glimpse of its query (``MessageURL``), never by
/// a whole long URL: a lookup of 100 tweet ids is 1,600 characters of URL.
@Suite("Message URLs")
struct MessageURLTests {
  static let ids = (0..<100).map { String(1_799_999_999_999_952_000 + $0) }
  /// The URL of `GET /2/tweets` for 100 ids with XAPI's fields, as the client builds it.
  static let lookup = URL(
    string: "https://api.x.com/2/tweets?ids=" + ids.joined(separator: "%2C")
      + "&tweet.fields=attachments%2Cauthor_id%2Cconversation_id%2Ccreated_at%2Centities%2Clang%2Cpublic_metrics%2Creferenced_tweets"
      + "&expansions=author_id%2Creferenced_tweets.id%2Cattachments.media_keys&user.fields=username%2Cname")!

  @Test func aShortURLIsShownAsItIsWithItsSecretsRedacted() {
    #expect(MessageURL.text("https://api.x.com/2/users/me?x=1") == "https://api.x.com/2/users/me?x=1")
    #expect(MessageURL.text("https://a.example/cb?oauth_token=abc&x=1") == "https://a.example/cb?oauth_token=<redacted>&x=1")
  }

  @Test func aHundredIdsAreShownAsTheirFirstTwoAndTheirCount() throws {
    #expect(Self.lookup.absoluteString.count > 2_000)
    let line = HTTPRequest(method: .get, url: Self.lookup).requestLine
    #expect(line.count <= MessageURL.requestLineLimit, "\(line.count) characters: \(line)")
    #expect(line == "GET https://api.x.com/2/tweets?ids=1799999999999952000,1799999999999952001…(100 values)&tweet.fields=…&expansions=…&…")
  }

  @Test func everyPartIsCutToFit() {
    let longPath = "https://api.example.com/" + String(repeating: "segment/", count: 40) + "end?a=1"
    let path = MessageURL.text(longPath)
    #expect(path.count <= 120 && path.hasPrefix("https://api.example.com/segment/") && path.contains("…?a=1"), "\(path)")
    let longValue = MessageURL.text("https://api.example.com/search?query=" + String(repeating: "word%20", count: 40) + "&flag&oauth_token=secret")
    #expect(longValue == "https://api.example.com/search?query=word word word word wor…&flag&oauth_token=<redacted>", "\(longValue)")
    // However long, never more than the limit, and a secret is never shown, even cut.
    let many = "https://api.example.com/x?" + (0..<200).map { "name\($0)=value\($0)" }.joined(separator: "&") + "&oauth_token=secret"
    for limit in [40, 80, 120, 200] {
      #expect(MessageURL.text(many, limit: limit).count <= limit)
      #expect(!MessageURL.text(many, limit: limit).contains("secret"))
    }
  }

  /// The failures a client reports name the request by its short line.
  @Test func statusAndTransportFailuresAreShort() async throws {
    let stub = StubTransport([
      .status(404, body: Data("<html>gone</html>".utf8)), .failure(URLError(.cannotConnectToHost)),
    ])
    let client = NetworkClient(baseURL: URL(string: "https://api.x.com")!, transport: stub)
    let query: [QueryItem] = [("ids", Self.ids.joined(separator: ",")), ("tweet.fields", "created_at,lang,public_metrics")]
    for _ in 0..<2 {
      do {
        _ = try await client.send(Request<HTTPResponse>(path: "2/tweets", query: query))
        Issue.record("no failure")
      } catch {
        #expect(!error.description.contains(Self.ids[2]), "\(error.description)")
        #expect(error.description.contains("GET https://api.x.com/2/tweets?ids=1799999999999952000,1799999999999952001…(100 values)"))
        #expect(error.description.count < 300, "\(error.description)")
      }
    }
  }
}
