import Foundation

/// Everything a ``NetworkClient`` shares across its requests: one per API base URL.
///
/// ```swift
/// let configuration = RequestConfiguration(
///   baseURL: URL(string: "https://api.x.com/2/")!,
///   defaultBehavior: CombinedRequestBehavior([RetryBehavior(), LoggingBehavior { print($0) }]))
/// ```
public struct RequestConfiguration: Sendable {
  /// The base every request path is joined to (a trailing slash does not matter).
  public var baseURL: URL
  /// Runs for every request, before the request's own behavior.
  public var defaultBehavior: any RequestBehavior
  public var transport: any HTTPTransport
  public var decoder: JSONDecoder
  public var encoder: JSONEncoder
  /// Seconds to wait for a response when a request does not say.
  public var timeout: TimeInterval
  /// Which redirects the client follows, and which origins may receive credentials.
  public var redirects: RedirectPolicy

  public init(
    baseURL: URL,
    defaultBehavior: any RequestBehavior = EmptyRequestBehavior(),
    transport: any HTTPTransport = URLSessionTransport(),
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = JSONEncoder(),
    timeout: TimeInterval = 30,
    redirects: RedirectPolicy = .default
  ) {
    self.baseURL = baseURL
    self.defaultBehavior = defaultBehavior
    self.transport = transport
    self.decoder = decoder
    self.encoder = encoder
    self.timeout = timeout
    self.redirects = redirects
  }
}
