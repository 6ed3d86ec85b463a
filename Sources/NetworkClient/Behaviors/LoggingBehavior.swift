import Foundation

/// Logs each attempt to a sink you supply: the request line and headers before it is sent (and,
/// for a redirect the client follows, where it was redirected from), and the status, duration
/// and size of the answer, or the failure. Credentials are redacted
/// (`Authorization`, `Cookie`, `oauth_*` values, tokens; see ``Redaction``).
///
/// ```swift
/// let logging = LoggingBehavior(includeHeaders: true) { line in
///   try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
/// }
/// ```
public struct LoggingBehavior: RequestBehavior {
  /// Whether each entry also lists the headers (credentials redacted) and, for a request, the body size in bytes;
  /// when `false`, only the request line and the outcome are logged.
  public let includeHeaders: Bool
  /// Receives each entry: one string per event (before sending, on success, on failure), several lines joined
  /// by newlines when headers are included. It is called from the sending task, possibly from several at once.
  public let sink: @Sendable (String) -> Void
  private let started: Locked<[UUID: Date]>

  /// - Parameters:
  ///   - includeHeaders: also log the headers, redacted, and the request body's size; `false` by default.
  ///   - sink: called with each entry; it must be safe to call from concurrent requests.
  public init(includeHeaders: Bool = false, sink: @escaping @Sendable (String) -> Void) {
    self.includeHeaders = includeHeaders
    self.sink = sink
    started = Locked([:])
  }

  public func beforeSend(_ request: HTTPRequest) async {
    started.withLock { $0[request.id] = Date() }
    var lines: [String] = []
    if let hop = request.redirections.last {
      let credentials = hop.keptCredentials ? "" : " (another origin: sent without credentials)"
      lines.append(
        "↪ \(hop.statusCode): redirected from \(Redaction.url(hop.from.absoluteString)) to \(Redaction.url(hop.to.absoluteString))\(credentials)")
    }
    lines.append("→ \(Self.fullLine(request))")
    if includeHeaders {
      lines += Redaction.headers(request.headers).map { "  \($0.name): \($0.value)" }
      if let body = request.body, !body.isEmpty { lines.append("  (body: \(body.count) bytes)") }
    }
    sink(lines.joined(separator: "\n"))
  }

  public func afterSuccess(_ response: HTTPResponse) async throws {
    var lines = ["← \(response.statusCode) \(Self.fullLine(response.request)) \(elapsed(response.request)) \(response.body.count) bytes"]
    if includeHeaders { lines += Redaction.headers(response.headers).map { "  \($0.name): \($0.value)" } }
    sink(lines.joined(separator: "\n"))
  }

  public func afterFailure(_ error: NetworkError, request: HTTPRequest) async {
    sink("✗ \(Self.fullLine(request)) \(elapsed(request)): \(error)")
  }

  /// A log shows the whole URL, secrets redacted: what was sent, not the shortened
  /// ``HTTPRequest/requestLine`` of messages.
  private static func fullLine(_ request: HTTPRequest) -> String {
    "\(request.method.rawValue) \(Redaction.url(request.url.absoluteString))"
  }

  private func elapsed(_ request: HTTPRequest) -> String {
    guard let start = started.withLock({ $0.removeValue(forKey: request.id) }) else { return "" }
    return String(format: "%.0f ms", Date().timeIntervalSince(start) * 1000)
  }
}
