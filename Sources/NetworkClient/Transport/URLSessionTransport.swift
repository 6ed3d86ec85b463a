import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The default transport, on `URLSession` (FoundationNetworking on Linux).
///
/// Its session keeps no cache and no cookies, so that what a behavior sees is what the server
/// sent (conditional requests are ``ConditionalRequestBehavior``'s job), and follows no
/// redirect: the client does, through the behaviors (``RedirectPolicy``), so that a signature
/// is made for the URL that is requested and credentials stay with their origin. A session you
/// pass in keeps its own redirect handling. Cancelling the task cancels the data task.
///
/// ```swift
/// let transport = URLSessionTransport()
/// ```
public struct URLSessionTransport: HTTPTransport {
  /// The session that sends the requests: the one passed in, else one from ``makeSession()``.
  public let session: URLSession

  /// Creates a transport on `session`, or on a new ``makeSession()`` session when `nil` (the default). A session of
  /// your own keeps its cache, cookies and redirect handling; one that follows redirects hides them from ``RedirectPolicy``.
  public init(session: URLSession? = nil) {
    self.session = session ?? Self.makeSession()
  }

  /// A new session like the default transport's: ephemeral, with no cache and no cookies, and handing every redirect
  /// back as the response instead of following it.
  public static func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.httpCookieStorage = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
  }

  /// Hands every redirect back as the response. A session-wide delegate: FoundationNetworking
  /// does not consult a per-task one for redirects.
  private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
      _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
      newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
      completionHandler(nil)
    }
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try Task.checkCancellation()
    if let reason = request.headers.invalidFieldReason { throw NetworkError.invalidRequest(reason: reason) }
    let (data, response): (Data, URLResponse)
    do {
      if let file = request.bodyFile {
        (data, response) = try await session.upload(for: request.urlRequest, fromFile: file)
      } else {
        (data, response) = try await session.data(for: request.urlRequest)
      }
    } catch let error as URLError where error.code == .cancelled {
      throw NetworkError.cancelled
    }
    try Task.checkCancellation()
    guard let http = response as? HTTPURLResponse else {
      throw NetworkError.transport(TransportFailure(request: request, underlying: URLError(.badServerResponse)))
    }
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
      headers.add(name: String(describing: name), value: String(describing: value))
    }
    return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data, request: request)
  }
}
