import Foundation
import NetworkClient

/// A transport that answers from a ``Cassette``: each request gets the response of the first
/// unused recorded interaction with the same method, path and query, so tests run against real
/// recorded answers with no network.
///
/// ```swift
/// let replay = ReplayTransport(try Cassette(contentsOf: cassetteFile))
/// let client = XClient(..., transport: replay)
/// let tweets = try await client.v2.tweets(ids: ["20"])
/// ```
///
/// Queries match as sets of name and value pairs, in any order, leaving out `oauth_*`
/// parameters (a query-signed request's signature changes on every run) and the sensitive ones
/// recording redacted. With
/// ``Matching/methodAndPath`` the query is not compared: for recordings made by other clients,
/// whose requests asked for other fields.
public final class ReplayTransport: HTTPTransport, Sendable {
  /// How a request finds its recorded answer.
  public enum Matching: Sendable {
    /// The method, the path and the query's pairs (without `oauth_*`).
    case methodPathAndQuery
    /// The method and the path only.
    case methodAndPath
  }

  /// No recorded interaction is left for a request.
  public struct NoRecording: Error, CustomStringConvertible {
    /// The request, as `GET /2/tweets?ids=20`.
    public let request: String
    /// The recorded requests not used yet.
    public let unused: [String]
    public var description: String {
      "no recorded answer for \(request); unused recordings: " + (unused.isEmpty ? "none" : unused.joined(separator: ", "))
    }
  }

  private let state: Locked<(remaining: [Cassette.Interaction], answered: [HTTPRequest])>
  private let matching: Matching

  /// Answers from `cassette`'s interactions, each once.
  public init(_ cassette: Cassette, matching: Matching = .methodPathAndQuery) {
    state = Locked((cassette.interactions, []))
    self.matching = matching
  }

  /// The requests answered so far.
  public var requests: [HTTPRequest] { state.withLock { $0.answered } }

  /// The recorded response of the first unused interaction that matches `request`.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try state.withLock { state in
      let key = Self.key(method: request.method.rawValue, url: request.url, matching: matching)
      guard
        let index = state.remaining.firstIndex(where: { interaction in
          URL(string: interaction.request.url).map { Self.key(method: interaction.request.method, url: $0, matching: matching) } == key
        })
      else {
        throw NoRecording(
          request: "\(request.method.rawValue) \(Redaction.url(request.url.absoluteString))",
          unused: state.remaining.map { "\($0.request.method) \($0.request.url)" })
      }
      let recorded = state.remaining.remove(at: index).response
      state.answered.append(request)
      return HTTPResponse(
        statusCode: recorded.status, headers: HTTPHeaders(recorded.headers.map { ($0.key, $0.value) }), body: recorded.data, request: request)
    }
  }

  struct Key: Hashable {
    let method: String
    let path: String
    let query: [String]
  }

  static func key(method: String, url: URL, matching: Matching) -> Key {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let query: [String]
    switch matching {
    case .methodAndPath:
      query = []
    case .methodPathAndQuery:
      query = (components?.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
        // Left out: oauth_* (a query signature changes every run) and what recording redacted.
        .filter { pair in
          let name = pair.prefix { $0 != "=" }
          return !name.hasPrefix("oauth_") && !Redaction.isSensitive(parameter: name.removingPercentEncoding ?? String(name))
        }
        .map { pair in
          // Compare decoded: one recorder writes `%2C`, another `,`.
          let name = pair.prefix { $0 != "=" }, value = pair.dropFirst(name.count + 1)
          return (name.removingPercentEncoding ?? String(name)) + "="
            + (value.replacingOccurrences(of: "+", with: "%20").removingPercentEncoding ?? String(value))
        }
        .sorted()
    }
    return Key(method: method.uppercased(), path: components?.percentEncodedPath ?? url.path, query: query)
  }
}
