import Foundation

/// Conditional GETs: remembers each URL's `ETag` and `Last-Modified` with its response, sends
/// `If-None-Match` / `If-Modified-Since` next time, and turns a `304 Not Modified` into the
/// remembered response, so callers always get a full body while the server sends none.
///
/// Keep one instance per client: the cache lives in it. It holds at most `capacity` URLs,
/// forgetting the least recently stored.
///
/// ```swift
/// let client = NetworkClient(baseURL: api, behavior: ConditionalRequestBehavior())
/// ```
public struct ConditionalRequestBehavior: RequestBehavior {
  struct Entry {
    var etag: String?
    var lastModified: String?
    var response: HTTPResponse
  }

  private let cache: Locked<[URL: Entry]>
  private let order: Locked<[URL]>
  /// The most URLs whose response is remembered (at least 1); storing one more forgets the least recently stored.
  public let capacity: Int

  /// Creates a behavior with an empty cache that holds up to `capacity` URLs (256 by default; less than 1 counts as 1).
  public init(capacity: Int = 256) {
    self.capacity = max(1, capacity)
    cache = Locked([:])
    order = Locked([])
  }

  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    guard request.method == .get, let entry = cache.withLock({ $0[request.url] }) else { return request }
    var request = request
    if let etag = entry.etag, !request.headers.contains("If-None-Match") { request.headers["If-None-Match"] = etag }
    if let date = entry.lastModified, !request.headers.contains("If-Modified-Since") { request.headers["If-Modified-Since"] = date }
    return request
  }

  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    guard request.method == .get else { return try await send(request) }
    do {
      let response = try await send(request)
      remember(response, for: request.url)
      return response
    } catch NetworkError.httpStatus(let failure) where failure.statusCode == 304 {
      guard let entry = cache.withLock({ $0[request.url] }) else { throw NetworkError.httpStatus(failure) }
      var response = entry.response
      // Headers a 304 sends (a new ETag, Date, rate limits) update the stored ones.
      for field in failure.headers { response.headers[field.name] = field.value }
      remember(response, for: request.url)
      return response
    }
  }

  private func remember(_ response: HTTPResponse, for url: URL) {
    let etag = response.headers["ETag"], lastModified = response.headers["Last-Modified"]
    guard etag != nil || lastModified != nil else { return }
    cache.withLock { $0[url] = Entry(etag: etag, lastModified: lastModified, response: response) }
    let evicted: URL? = order.withLock { order in
      order.removeAll { $0 == url }
      order.append(url)
      return order.count > capacity ? order.removeFirst() : nil
    }
    if let evicted { cache.withLock { _ = $0.removeValue(forKey: evicted) } }
  }

  /// How many responses are remembered.
  public var count: Int { cache.withLock { $0.count } }
}
