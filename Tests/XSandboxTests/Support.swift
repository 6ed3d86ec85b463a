import Foundation
import NetworkClient
import OAuth1
import XAPI
import XSandbox

/// 2024-05-01T12:00:00Z, a Wednesday.
let mayDay: Int64 = 1_714_564_800

extension XSandbox {
  /// A client of this sandbox with the demo credentials (or others), no retries.
  func client(
    consumer: Credentials = XSandbox.demoConsumer, token: Credentials? = XSandbox.demoAccessToken,
    configuration: OAuthSigner.Configuration = .init(), baseURL: URL = XClient.defaultBaseURL
  ) -> XClient {
    XClient(authentication: .oauth1(consumer: consumer, token: token, configuration: configuration), baseURL: baseURL, transport: self, retry: nil)
  }

  /// A request sent straight to the sandbox, unsigned unless `authorization` says otherwise.
  func raw(_ method: HTTPMethod = .get, _ url: String, authorization: String? = nil) async throws -> HTTPResponse {
    var request = HTTPRequest(method: method, url: URL(string: url)!)
    if let authorization { request.headers["Authorization"] = authorization }
    return try await send(request)
  }
}

extension AsyncSequence {
  func collect() async throws -> [Element] {
    var all: [Element] = []
    for try await element in self { all.append(element) }
    return all
  }
}

/// The JSON object of a response body.
func jsonObject(_ response: HTTPResponse) -> [String: Any]? {
  try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
}

/// The X error thrown by `body`, or `nil` when it threw something else or nothing.
func xError(_ body: () async throws -> Void) async -> XError? {
  do {
    try await body()
    return nil
  } catch let error as XError {
    return error
  } catch {
    return nil
  }
}

/// Tweet ids as numbers, for ordering.
func numericIDs(_ tweets: [Tweet]) -> [UInt64] { tweets.compactMap { UInt64($0.id) } }

func isNewestFirst(_ tweets: [Tweet]) -> Bool {
  let ids = numericIDs(tweets)
  return ids.count == tweets.count && zip(ids, ids.dropFirst()).allSatisfy { $0 > $1 }
}
