/// One side effect of sending requests, kept out of the client and out of the endpoints:
/// headers, signing, logging, retrying, caching, verifying.
///
/// Every hook has a default that does nothing, so a behavior implements only what it needs.
/// Behaviors combine (``CombinedRequestBehavior``); a client has a default behavior, and each
/// request may add its own, which runs after the client's.
///
/// For one request the client runs:
/// 1. ``around(_:send:)`` of each behavior, the client's outermost; inside it, once per attempt:
/// 2. ``additionalHeaders`` (a header the request sets itself wins),
/// 3. ``modify(_:)`` of every behavior in order, then of the signers (``isSigner``), so a
///    signature covers the final request, on every attempt,
/// 4. ``beforeSend(_:)``, the transport; a redirect the ``RedirectPolicy`` follows goes back
///    to step 2 with the new URL (its ``HTTPRequest/redirections`` say where it came from);
///    then a status check (not 2xx fails the attempt),
/// 5. ``afterSuccess(_:)`` in order; the first that throws fails the attempt,
/// 6. ``afterFailure(_:request:)`` in order, when anything in 3–5 failed.
///
/// ```swift
/// struct UserAgent: RequestBehavior {
///   var additionalHeaders: HTTPHeaders { ["User-Agent": "tweets/1.0"] }
/// }
/// ```
public protocol RequestBehavior: Sendable {
  /// Headers for every request.
  var additionalHeaders: HTTPHeaders { get }

  /// Whether this behavior signs requests: signers modify after every other behavior, and
  /// never on a redirect to an origin the ``RedirectPolicy`` does not trust.
  var isSigner: Bool { get }

  /// Headers this behavior adds that are credentials (an API key, a session token): removed
  /// from a request redirected to an origin the ``RedirectPolicy`` does not trust, along with
  /// `Authorization`, `Proxy-Authorization` and `Cookie`, which always are.
  var credentialHeaders: [String] { get }

  /// Changes the request before it is sent (add a header, sign it ...).
  func modify(_ request: HTTPRequest) async throws -> HTTPRequest

  /// Sees the final request, just before the transport sends it.
  func beforeSend(_ request: HTTPRequest) async

  /// Sees a 2xx response; throwing fails the request (API verification).
  func afterSuccess(_ response: HTTPResponse) async throws

  /// Sees the failure of an attempt.
  func afterFailure(_ error: NetworkError, request: HTTPRequest) async

  /// Wraps the whole exchange: `send` makes one attempt (steps 2–6 above) and may be called
  /// again to retry, or not at all to answer from a cache; the response may be replaced.
  func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse
}

extension RequestBehavior {
  public var additionalHeaders: HTTPHeaders { [:] }
  public var isSigner: Bool { false }
  public var credentialHeaders: [String] { [] }
  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest { request }
  public func beforeSend(_ request: HTTPRequest) async {}
  public func afterSuccess(_ response: HTTPResponse) async throws {}
  public func afterFailure(_ error: NetworkError, request: HTTPRequest) async {}
  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    try await send(request)
  }
}

/// The behavior that does nothing: the default of a client and of a request.
public struct EmptyRequestBehavior: RequestBehavior {
  /// Creates the behavior that adds nothing to an exchange: no headers, no changes, no checks.
  public init() {}
}
