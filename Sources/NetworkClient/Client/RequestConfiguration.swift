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
  /// Sends each request and returns the answer: a ``URLSessionTransport`` by default, `StubTransport` (in
  /// `NetworkClientTesting`) in tests.
  public var transport: any HTTPTransport
  /// Decodes JSON responses into a request's `Output` (it is handed to the request's `decode`); set date or key
  /// strategies here.
  public var decoder: JSONDecoder
  /// Encodes ``RequestBody/json(_:)`` bodies; a value it cannot encode fails the request with
  /// ``NetworkError/invalidRequest(reason:)`` before anything is sent.
  public var encoder: JSONEncoder
  /// Seconds to wait for a response when a request does not say.
  public var timeout: TimeInterval
  /// Which redirects the client follows, and which origins may receive credentials.
  public var redirects: RedirectPolicy
  /// Seconds the whole of one exchange (one hop: sending the request, receiving all of its
  /// answer) may take; `nil` (the default): ``totalTimeoutMultiple`` times the request's
  /// timeout, which bounds only silence. A server that trickles its answer (a byte every half
  /// second) is never silent for long: without this it could hold a request for as long as it
  /// likes. Streamed answers (``HTTPStreamingTransport``) have no total deadline.
  public var totalTimeout: TimeInterval?
  /// The total deadline as a multiple of a request's timeout, when ``totalTimeout`` is `nil`: 4,
  /// so a request with the default 30 s timeout ends within 2 minutes, whatever the server does.
  public static let totalTimeoutMultiple: Double = 4

  /// The whole exchange's deadline for `request`.
  func totalTimeout(for request: HTTPRequest) -> TimeInterval {
    totalTimeout ?? (request.timeout ?? timeout) * Self.totalTimeoutMultiple
  }

  /// - Parameters:
  ///   - baseURL: the URL every request path is joined to.
  ///   - defaultBehavior: runs for every request, before the request's own behavior; none by default.
  ///   - transport: sends the requests; a new ``URLSessionTransport`` by default.
  ///   - decoder: decodes JSON responses; a plain `JSONDecoder` by default.
  ///   - encoder: encodes JSON bodies; a plain `JSONEncoder` by default.
  ///   - timeout: seconds to wait for each response when a request sets no timeout; 30 by default.
  ///   - redirects: which redirects the client follows and which origins receive credentials; by default
  ///     `RedirectPolicy.default` (up to 5 hops, credentials kept within the request's origin).
  public init(
    baseURL: URL,
    defaultBehavior: any RequestBehavior = EmptyRequestBehavior(),
    transport: any HTTPTransport = DefaultTransport(),
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
