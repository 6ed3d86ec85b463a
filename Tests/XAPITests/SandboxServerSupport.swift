import Foundation
import NetworkClient
import OAuth1
import TestSupport
import XAPI

let fixtureConsumer = Credentials(key: VerifiedSandbox.consumerKey, secret: VerifiedSandbox.consumerSecret)
let fixtureToken = Credentials(key: VerifiedSandbox.accessToken, secret: VerifiedSandbox.accessTokenSecret)

extension VerifiedSandbox {
  /// A client for this server, OAuth 1.0a user context unless told otherwise; no retries
  /// unless given, so that a test sees each answer.
  func client(
    consumer: Credentials = fixtureConsumer, token: Credentials? = fixtureToken, retry: RetryBehavior? = nil,
    authentication: XAuthentication? = nil
  ) -> XClient {
    XClient(authentication: authentication ?? .oauth1(consumer: consumer, token: token), baseURL: baseURL, retry: retry, timeout: 10)
  }
}

extension Pages {
  func collect() async throws -> [Page<Item>] {
    var pages: [Page<Item>] = []
    for try await page in self { pages.append(page) }
    return pages
  }
}

extension Pages.Items {
  func collect() async throws -> [Item] {
    var items: [Item] = []
    for try await item in self { items.append(item) }
    return items
  }
}

extension Pages {
  /// The first page only (a recording holds one).
  func firstPage() async throws -> Page<Item>? {
    var iterator = makeAsyncIterator()
    return try await iterator.next()
  }
}
