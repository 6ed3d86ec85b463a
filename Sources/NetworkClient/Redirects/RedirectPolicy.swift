import Foundation

/// How a ``NetworkClient`` follows redirects. The client follows them itself (the transport
/// never does), so each hop runs through the behaviors again and a signer signs the URL that is
/// actually requested.
///
/// | status | next request |
/// |---|---|
/// | 301, 302 | GET and HEAD are repeated at the new URL; any other method is not followed (``RedirectFailure/Reason/methodNotRepeatable``) |
/// | 303 | GET without a body (HEAD stays HEAD) |
/// | 307, 308 | the same method and body, the body only within the request's origin or to ``bodyOrigins`` |
///
/// A hop to another origin (scheme, host or port) that is not in ``trustedOrigins`` goes
/// without credentials: no signer runs, and `Authorization`, `Proxy-Authorization`, `Cookie`
/// and every header a behavior lists in ``RequestBehavior/credentialHeaders`` are removed; it
/// stays so for the rest of the chain. A body is a credential as often as not (a token grant, a
/// password form, a signed upload), and a server's `Location` is no consent of the caller's: a
/// request with a body is not sent to another origin unless that origin is in ``bodyOrigins``
/// (``RedirectFailure/Reason/bodyToAnotherOrigin``). A hop from https to http is refused. More
/// than ``maxRedirects`` hops end in ``RedirectFailure/Reason/tooMany(limit:)``. ``refuse``
/// makes every redirect an error, for a request bound to one endpoint (OAuth token endpoints).
///
/// ```swift
/// var configuration = RequestConfiguration(baseURL: URL(string: "https://api.example.com")!)
/// let upload = HTTPOrigin(scheme: "https", host: "upload.example.com")
/// configuration.redirects = RedirectPolicy(trustedOrigins: [upload], bodyOrigins: [upload])
/// configuration.redirects = .none  // a 3xx is then an answer like any other
/// configuration.redirects = .refuse  // a 3xx is then an error that names only where it pointed
/// ```
public struct RedirectPolicy: Sendable {
  /// The most redirects one request follows; 0 follows none.
  public var maxRedirects: Int
  /// Origins besides the request's own that may receive its credentials.
  public var trustedOrigins: Set<HTTPOrigin>
  /// Origins besides the request's own to which a 307 or 308 may send the request's body again.
  /// A trusted origin is not one of them unless listed here too: credentials and a body are
  /// trusted apart, each by name.
  public var bodyOrigins: Set<HTTPOrigin>
  /// Whether a redirect is an error (``RedirectFailure/Reason/refused``) rather than followed or
  /// returned: for a request whose credentials belong to the one URL it is addressed to.
  public var refusesRedirects: Bool

  /// - Parameters:
  ///   - maxRedirects: the most redirects one request follows, 5 by default; 0 follows none, and a negative
  ///     value counts as 0.
  ///   - trustedOrigins: origins besides the request's own that may receive its credentials; none by default.
  ///   - bodyOrigins: origins besides the request's own that a 307 or 308 may send the request's body to; none
  ///     by default, so a redirect of a request with a body to another origin is refused.
  ///   - refusesRedirects: whether every redirect is an error; `false` by default (see ``refuse``).
  public init(maxRedirects: Int = 5, trustedOrigins: Set<HTTPOrigin> = [], bodyOrigins: Set<HTTPOrigin> = [], refusesRedirects: Bool = false) {
    self.maxRedirects = max(0, maxRedirects)
    self.trustedOrigins = trustedOrigins
    self.bodyOrigins = bodyOrigins
    self.refusesRedirects = refusesRedirects
  }

  /// Follows up to five redirects, keeping credentials and bodies within the request's own origin.
  public static let `default` = RedirectPolicy()
  /// Follows none: a 3xx fails like any other status that is not 2xx, with its `Location`.
  public static let none = RedirectPolicy(maxRedirects: 0)
  /// Follows none and makes each an error, ``RedirectFailure/Reason/refused``, that names the
  /// status and the origin it pointed to, never the path or query (which may echo what was
  /// sent). For requests bound to one endpoint: an OAuth token or revoke endpoint, a token
  /// exchange, whose bodies are codes, refresh tokens and secrets.
  public static let refuse = RedirectPolicy(maxRedirects: 0, refusesRedirects: true)

  static let statuses: Set<Int> = [301, 302, 303, 307, 308]

  /// The request for the next hop after `response` to `hop` (the request as it was before the
  /// behaviors ran), or `nil` when `response` is not a redirect to follow.
  ///
  /// - Parameters:
  ///   - start: the URL of the first request, whose origin owns the credentials.
  ///   - credentialed: whether the hop that got `response` carried credentials.
  /// - Throws: ``NetworkError/redirect(_:)`` for a redirect it refuses.
  package func next(after response: HTTPResponse, to hop: HTTPRequest, start: URL, credentialed: Bool) throws(NetworkError) -> HTTPRequest? {
    guard refusesRedirects || maxRedirects > 0, Self.statuses.contains(response.statusCode),
      let location = response.headers["Location"]?.trimmingCharacters(in: .whitespaces), !location.isEmpty
    else { return nil }
    func refuse(_ reason: RedirectFailure.Reason) -> NetworkError {
      .redirect(RedirectFailure(reason: reason, statusCode: response.statusCode, request: hop, location: location))
    }
    if refusesRedirects { throw refuse(.refused) }
    guard hop.redirections.count < maxRedirects else { throw refuse(.tooMany(limit: maxRedirects)) }
    guard let target = URL(string: location, relativeTo: hop.url)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", let targetOrigin = HTTPOrigin(target)
    else {
      throw refuse(.unsupportedLocation)
    }
    if hop.url.scheme?.lowercased() == "https" && scheme == "http" { throw refuse(.insecure) }

    var next = hop
    switch response.statusCode {
    case 303:
      if next.method != .head { next.method = .get }
      next.body = nil
      next.headers["Content-Type"] = nil
      next.headers["Content-Length"] = nil
      next.isIdempotent = true
    case 301, 302:
      guard hop.method == .get || hop.method == .head else { throw refuse(.methodNotRepeatable) }
    default:
      break
    }
    let hasBody = next.body != nil || next.bodyFile != nil
    if hasBody && targetOrigin != HTTPOrigin(start) && !bodyOrigins.contains(targetOrigin) { throw refuse(.bodyToAnotherOrigin) }
    next.url = target
    let keeps = credentialed && (targetOrigin == HTTPOrigin(start) || trustedOrigins.contains(targetOrigin))
    next.redirections.append(Redirection(statusCode: response.statusCode, from: hop.url, to: target, keptCredentials: keeps))
    return next
  }
}

/// A redirect the client would not follow, with where it pointed.
public struct RedirectFailure: Sendable, CustomStringConvertible {
  /// Why the client refused to follow a redirect.
  public enum Reason: Sendable, Hashable {
    /// More hops than the policy allows: a loop, or a chain too long to trust.
    case tooMany(limit: Int)
    /// From https to http: the request, and its credentials, would travel in clear.
    case insecure
    /// `Location` is not an http or https URL.
    case unsupportedLocation
    /// A 301 or 302 of a method other than GET or HEAD, which HTTP leaves ambiguous (clients
    /// have turned such a POST into a GET): the request is not repeated on a guess.
    case methodNotRepeatable
    /// A 307 or 308 (or a 301 or 302 of a GET with a body) of a request with a body to another
    /// origin that ``RedirectPolicy/bodyOrigins`` does not list: the body is not sent there.
    case bodyToAnotherOrigin
    /// The policy follows no redirect (``RedirectPolicy/refuse``): the request's credentials
    /// belong to the URL it was addressed to.
    case refused
  }

  /// Why the redirect was not followed: a loop, a downgrade to http, an unusable `Location`, or a method that a
  /// 301 or 302 does not repeat.
  public let reason: Reason
  /// The status of the refused redirect: 301, 302, 303, 307 or 308.
  public let statusCode: Int
  /// The hop that was redirected, secrets redacted.
  public let requestLine: String
  /// The `Location` it pointed to, secrets redacted and a long one shortened (``MessageURL``);
  /// for ``Reason/refused``, only the origin it pointed to (`https://b.example:443`), or
  /// `an unusable Location`.
  public let location: String
  /// The redirects followed before this one.
  public let redirections: [Redirection]

  init(reason: Reason, statusCode: Int, request: HTTPRequest, location: String) {
    self.reason = reason
    self.statusCode = statusCode
    requestLine = request.requestLine
    if reason == .refused {
      let target = URL(string: location, relativeTo: request.url)?.absoluteURL
      self.location = target.flatMap(HTTPOrigin.init).map(\.description) ?? "an unusable Location"
    } else {
      self.location = MessageURL.text(location)
    }
    redirections = request.redirections
  }

  public var description: String {
    let start = "\(requestLine)\(Redirection.note(redirections)) was redirected (HTTP \(statusCode)) to \(location)"
    switch reason {
    case .tooMany(let limit):
      return
        "\(start), more than \(limit) redirects: the server sends the request in a loop or down too long a chain. Request the final URL directly."
    case .insecure:
      return
        "\(start), from https to http: not followed, since the request and its credentials would travel in clear. Use the https URL, or ask the provider why it redirects."
    case .unsupportedLocation:
      return "\(start), which is not an http or https URL: not followed."
    case .methodNotRepeatable:
      return
        "\(start): not followed, since a \(statusCode) does not say whether to repeat the request's method and body there. Send it to the new URL directly."
    case .bodyToAnotherOrigin:
      return
        "\(start), another origin: not followed, since the request's body (which may hold a token, a password or a code) goes only to its own origin. If that origin should have it, list it in RedirectPolicy(bodyOrigins:), or send the request to the new URL directly."
    case .refused:
      return
        "\(requestLine)\(Redirection.note(redirections)) was answered with a redirect (HTTP \(statusCode)) to \(location) (its path and query not shown): not followed, since this request's credentials go only to the URL it was sent to. If the endpoint moved, configure its new URL."
    }
  }
}
