import Foundation
import NetworkClient

/// Remembers the rate-limit state of the last response, overall and per endpoint path, so it
/// can be read after every call (X sends it on most reads and on 429s).
///
/// ```swift
/// _ = try await client.v2.me()
/// client.rateLimits.last?.remaining  // 74
/// ```
public final class RateLimitTracker: RequestBehavior, Sendable {
  private let state = Locked<(last: RateLimit?, byPath: [String: RateLimit])>((nil, [:]))

  /// An empty tracker. ``XClient`` makes its own (``XClient/rateLimits``); make one to track a `NetworkClient` of your
  /// own, by adding it to the client's behaviors.
  public init() {}

  /// The state from the most recent response that carried one.
  public var last: RateLimit? { state.withLock { $0.last } }

  /// The state for an endpoint path, such as `/2/users/me`.
  public func rateLimit(forPath path: String) -> RateLimit? { state.withLock { $0.byPath[path] } }

  public func afterSuccess(_ response: HTTPResponse) async throws {
    record(response.rateLimit, path: response.request.url.path)
  }

  public func afterFailure(_ error: NetworkError, request: HTTPRequest) async {
    if case .httpStatus(let failure) = error { record(failure.rateLimit, path: request.url.path) }
  }

  private func record(_ limit: RateLimit?, path: String) {
    guard let limit else { return }
    state.withLock {
      $0.last = limit
      $0.byPath[path] = limit
    }
  }
}
