import Foundation

/// Which API a path belongs to: it decides the error bodies.
enum SandboxFamily: Sendable { case v2, v1, oauth }

/// One request, parsed, for a route's handler.
struct RouteContext: Sendable {
  let method: String
  let params: [(String, String)]
  /// First value of each query parameter.
  let query: [String: String]
  let body: Data?
  let contentType: String?
  let caller: SandboxCaller
  let family: SandboxFamily
  let now: Int64
  /// `scheme://host:port` of the request as it arrived (its `Host`): where URLs on the API host point.
  var origin = "https://api.x.com"
  /// The segments matched by `*` in the route's pattern.
  let captures: [String]
  /// The sandbox's other origin, where presigned storage URLs point (when it is served).
  var offsite: SandboxOffsite? = nil
}

/// An endpoint: method, path pattern, rate limit (`nil` for writes and for refusals made before
/// any counting, which carry no `x-rate-limit-*` headers), whether app-only auth may call it,
/// the v2 query parameters it accepts, what X bills for it (``SandboxBillable``), and its
/// handler (called with the store's lock held).
struct SandboxRoute: Sendable {
  let method: String
  /// Segments; `*` matches one, `*.json` one ending in `.json` (captured without it).
  let pattern: [String]
  let name: String
  let limit: Int?
  var bearerOK = true
  /// X serves some endpoints app-only (full-archive search, counts): a user-context signature is refused.
  var appOnly = false
  var allowed: [String]? = nil
  /// X serves some endpoints to OAuth 2.0 user context only (bookmark writes): an OAuth 1.0a
  /// signature is refused.
  var oauth1OK = true
  /// X's specification lists no OAuth 2.0 user context for some endpoints that take OAuth 1.0a
  /// user context and app-only (webhook registration, re-check and deletion): an OAuth 2.0 user
  /// access token is refused.
  var oauth2OK = true
  /// The scopes an OAuth 2.0 user access token must carry (X's `OAuth2UserToken` security of the
  /// operation); without one of them X answers 403.
  var scopes: [String] = []
  /// What X bills for a successful answer.
  var billing: SandboxBillable = .free
  let handler: @Sendable (inout SandboxState, RouteContext) -> SandboxResponse

  func match(method: String, segments: [String]) -> [String]? {
    guard method == self.method || (method == "HEAD" && self.method == "GET"), segments.count == pattern.count else { return nil }
    var captures: [String] = []
    for (piece, segment) in zip(pattern, segments) {
      if piece == "*" {
        captures.append(segment)
      } else if piece == "*.json" {
        guard segment.hasSuffix(".json"), segment.count > 5 else { return nil }
        captures.append(String(segment.dropLast(5)))
      } else if piece != segment {
        return nil
      }
    }
    return captures
  }

  static let tweetExtra = ["expansions", "tweet.fields", "post.fields", "user.fields", "media.fields", "place.fields", "poll.fields"]
  static let timelineParameters = ["id", "since_id", "until_id", "max_results", "pagination_token", "exclude", "start_time", "end_time"] + tweetExtra
  static let mentionParameters = ["since_id", "until_id", "max_results", "pagination_token", "start_time", "end_time"] + tweetExtra
  static let pageParameters = ["max_results", "pagination_token"]
  static let searchParameters =
    ["query", "start_time", "end_time", "since_id", "until_id", "max_results", "next_token", "pagination_token", "sort_order"] + tweetExtra
  static let countParameters =
    ["query", "start_time", "end_time", "since_id", "until_id", "next_token", "pagination_token", "granularity", "search_count.fields"]
  static let userParameters = ["expansions", "tweet.fields", "post.fields", "user.fields"]

  /// Every endpoint the sandbox serves: the rows of each resource family (one file each, in
  /// `Resources/`). A family lists its more specific patterns first (`2/users/me` before
  /// `2/users/*`); patterns of different families never match the same path.
  static let all: [SandboxRoute] =
    users + moderation + bookmarks + engagement + enterpriseOnly + posts + timelines + search + lists + directMessages + media + stream + connections
    + usage
    + compliance + activity + activityStream + webhooks

  static func find(method: String, segments: [String]) -> (SandboxRoute, [String])? {
    for route in all {
      if let captures = route.match(method: method, segments: segments) { return (route, captures) }
    }
    return nil
  }
}
