import Foundation
import OAuth1
import OAuthNetworking

/// `oauth1 serve --profile NAME`: a known provider's rules (its ``OAuthProvider`` profile) read
/// from the provider's side, so that a client can be tested against the bends it will meet:
/// the realm it answers with, the only signature methods it accepts, the paths of its flow, a
/// body hash it requires, two-legged requests that send `oauth_token=""`, and Atlassian's
/// form-encoded 401 that carries `oauth_signature_base_string`.
///
/// ```swift
/// let profile = try ServeProfile(named: "netsuite", site: "123456_SB1")
/// profile.allowedSignatureMethods  // [HMAC-SHA256]
/// ```
struct ServeProfile: Sendable {
  /// How a refusal's body is written.
  enum ProblemBody: Sendable {
    /// The JSON body of every `oauth1 serve` refusal (the base string and its stages).
    case json
    /// Atlassian's: `application/x-www-form-urlencoded` with `oauth_problem`,
    /// `oauth_problem_advice` and, for `signature_invalid`, `oauth_signature_base_string`.
    case atlassianForm
  }

  /// The profile's name, as `--profile` took it.
  let name: String
  /// The realm of `WWW-Authenticate`; `nil` for the server's URL.
  let realm: String?
  /// The only methods accepted; any other is `signature_method_rejected`.
  let allowedSignatureMethods: Set<OAuthSignatureMethod>
  /// Whether a request whose body is not a form must carry `oauth_body_hash`.
  let requiresBodyHash: Bool
  /// Whether `oauth_token=""` is a two-legged request (signed with the consumer alone).
  let emptyTokenIsTwoLegged: Bool
  let problemBody: ProblemBody
  /// The paths of the provider's own flow endpoints, besides `/oauth/...`.
  let endpointPaths: [String: LoopbackProvider.Endpoint]
  /// The profile's notes, printed when the server starts.
  let notes: [String]

  /// Providers that answer a refusal as Atlassian's servers do.
  static let atlassianProviders: Set = ["jira", "confluence", "bitbucket"]

  /// The profile named `name` (``OAuthProvider/names``); `site` as `--provider` takes it. A
  /// provider that lives on your own server gets this server's loopback URL when no site is given.
  init(named name: String, site: String?) throws(OAuthProvider.LookupError) {
    let provider: OAuthProvider
    do {
      provider = try OAuthProvider.named(name, site: site)
    } catch  where site == nil && name.lowercased() != "netsuite" {
      provider = try OAuthProvider.named(name, site: "http://127.0.0.1/")
    }
    self.init(provider)
  }

  init(_ provider: OAuthProvider) {
    name = provider.name
    realm = provider.realm
    allowedSignatureMethods = Set(provider.acceptedSignatureMethods)
    requiresBodyHash = provider.bodyHash != nil
    emptyTokenIsTwoLegged = provider.sendsEmptyToken
    problemBody = Self.atlassianProviders.contains(provider.name) ? .atlassianForm : .json
    var paths: [String: LoopbackProvider.Endpoint] = [:]
    if let endpoints = provider.endpoints {
      paths[Self.path(endpoints.requestToken, provider.baseURL)] = .requestToken
      paths[Self.path(endpoints.authorize, provider.baseURL)] = .authorize
      paths[Self.path(endpoints.authenticate, provider.baseURL)] = .authorize
      paths[Self.path(endpoints.accessToken, provider.baseURL)] = .accessToken
    }
    endpointPaths = paths
    notes = provider.notes
  }

  /// What the server prints on stderr when it starts.
  var summary: String {
    var lines = ["Behaving as \(name): \(allowedSignatureMethods.map(\.rawValue).sorted().joined(separator: ", ")) only"]
    if let realm { lines[0] += ", realm \"\(realm)\"" }
    if requiresBodyHash { lines[0] += ", oauth_body_hash required" }
    if emptyTokenIsTwoLegged { lines[0] += ", oauth_token=\"\" is two-legged" }
    if problemBody == .atlassianForm { lines[0] += ", refusals as Atlassian's (oauth_signature_base_string)" }
    for (path, endpoint) in endpointPaths.sorted(by: { $0.key < $1.key }) where !path.hasPrefix("/oauth/") {
      lines.append("  \(endpoint.rawValue): \(path)")
    }
    return lines.joined(separator: "\n")
  }

  /// The path of an endpoint: an absolute URL's, or a relative one's under the provider's URL.
  static func path(_ endpoint: String, _ baseURL: URL) -> String {
    if let url = URL(string: endpoint), url.scheme != nil { return url.path.isEmpty ? "/" : url.path }
    let base = baseURL.path.hasSuffix("/") ? baseURL.path : baseURL.path + "/"
    return base + endpoint.drop { $0 == "/" }
  }
}
