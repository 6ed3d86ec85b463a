import Foundation
import NetworkClient
import OAuth1
import TestSupport
import XAPI

let fixtureConsumer = Credentials(key: FakeXAPI.consumerKey, secret: FakeXAPI.consumerSecret)
let fixtureToken = Credentials(key: FakeXAPI.accessToken, secret: FakeXAPI.accessTokenSecret)

extension FakeXAPI {
  /// A client for this server, OAuth 1.0a user context unless told otherwise; no retries
  /// unless given, so that a test sees each answer.
  func client(
    consumer: Credentials = fixtureConsumer, token: Credentials? = fixtureToken, retry: RetryBehavior? = nil,
    authentication: XAuthentication? = nil
  ) -> XClient {
    XClient(authentication: authentication ?? .oauth1(consumer: consumer, token: token), baseURL: baseURL, retry: retry, timeout: 10)
  }
}

extension TweetPages {
  func collect() async throws -> [TweetPage] {
    var pages: [TweetPage] = []
    for try await page in self { pages.append(page) }
    return pages
  }
}

extension TweetPages.Tweets {
  func collect() async throws -> [Tweet] {
    var tweets: [Tweet] = []
    for try await tweet in self { tweets.append(tweet) }
    return tweets
  }
}
