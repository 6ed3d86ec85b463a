import Foundation

/// A request that got no HTTP response, sorted by what it means for sending it again.
///
/// ```swift
/// catch .transport(let failure) where failure.kind == .timedOut {
///   print("no answer within", failure.timeout ?? 0, "s, after", failure.attempts, "attempts")
/// }
/// ```
public struct TransportFailure: Sendable, CustomStringConvertible {
  /// What happened, in the terms a retry policy needs.
  public enum Kind: Sendable, Hashable {
    /// Nothing accepted the connection: the request was never sent, so any method may be
    /// sent again.
    case refused
    /// No answer within the request's timeout; the server may still have acted on it.
    case timedOut
    /// The connection broke or the answer ended early; the server may have acted on it.
    case interrupted
    /// The host name did not resolve: not a failure that passes in seconds.
    case hostNotFound
    /// TLS could not be established (certificate, protocol): retrying changes nothing.
    case tls
    /// The answer was larger than the transport accepts (``CurlTransport/Configuration/maxResponseBytes``):
    /// retrying changes nothing.
    case tooLarge
    /// Anything else, such as an error from a custom transport.
    case other
  }

  /// The request that failed, secrets redacted: `GET https://api.example.com/items`.
  public let requestLine: String
  /// What kind of failure it was, from the underlying `URLError` code; `.other` for any other error, such as one that is not a `URLError`.
  public let kind: Kind
  /// The seconds the request was allowed to wait, when it set a timeout.
  public let timeout: TimeInterval?
  /// The redirects followed before the failed hop.
  public let redirections: [Redirection]
  /// How many times the request was sent; more than 1 after retries.
  public internal(set) var attempts: Int = 1
  /// The transport's own error.
  public let underlying: any Error

  /// - Parameters:
  ///   - request: the request that got no response; its request line, timeout and redirects are kept.
  ///   - underlying: the transport's error; its `URLError` code decides `kind`.
  public init(request: HTTPRequest, underlying: any Error) {
    requestLine = request.requestLine
    timeout = request.timeout
    redirections = request.redirections
    self.underlying = underlying
    kind = Self.kind(of: underlying)
  }

  /// Whether the exchange outlasted its total deadline (``RequestConfiguration/totalTimeout``):
  /// the server was answering, too slowly, and sending the request again would meet the same.
  public var passedTotalDeadline: Bool {
    kind == .timedOut && (underlying as NSError).userInfo[Deadline.userInfoKey] != nil
  }

  /// A short phrase for progress messages: `timed out after 1 s`, `connection refused`.
  public var summary: String {
    switch kind {
    case .refused: return "connection refused"
    case .timedOut: return timeout.map { "timed out after \(Seconds.text($0))" } ?? "timed out"
    case .interrupted: return "connection lost"
    case .hostNotFound: return "host not found"
    case .tls: return "TLS failed"
    case .tooLarge: return "answer too large"
    case .other: return "no response"
    }
  }

  public var description: String {
    let detail = Redaction.text(Self.explain(underlying))
    let redirected = Redirection.note(redirections)
    if kind == .timedOut, let deadline = (underlying as NSError).userInfo[Deadline.userInfoKey] as? TimeInterval {
      let tries = attempts > 1 ? " (each of \(attempts) attempts)" : ""
      return
        "\(requestLine)\(redirected) took longer than its total deadline of \(Seconds.text(deadline))\(tries): the server kept sending, too slowly. Check the server, or allow a longer timeout."
    }
    if kind == .timedOut, let timeout {
      let tries = attempts > 1 ? "\(attempts) attempts of \(Seconds.text(timeout)) each" : Seconds.text(timeout)
      return
        "\(requestLine)\(redirected) timed out after \(tries): the server did not answer in time. Check that it is up, or allow a longer timeout."
    }
    let tries = attempts > 1 ? " after \(attempts) attempts" : ""
    return "\(requestLine)\(redirected) failed\(tries): \(detail). Check the URL, the network and that the server is up."
  }

  static func kind(of error: any Error) -> Kind {
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return .other }
    switch URLError.Code(rawValue: nsError.code) {
    case .cannotConnectToHost: return .refused
    case .timedOut: return .timedOut
    case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .unknown: return .interrupted
    case .cannotFindHost, .dnsLookupFailed: return .hostNotFound
    case .dataLengthExceedsMaximum: return .tooLarge
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
      .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      return .tls
    default: return .other
    }
  }

  /// A transport failure in words: what happened, then the system's own detail (curl's message
  /// on Linux), instead of the raw `NSError` dump.
  static func explain(_ error: any Error) -> String {
    let nsError = error as NSError
    guard nsError.domain == NSURLErrorDomain else { return String(describing: error) }
    let what: String
    switch URLError.Code(rawValue: nsError.code) {
    case .cannotConnectToHost: what = "could not connect (connection refused)"
    case .timedOut: what = "timed out waiting for the server"
    case .networkConnectionLost: what = "the connection was lost before the response was complete"
    case .cannotFindHost, .dnsLookupFailed: what = "the host name could not be resolved"
    case .notConnectedToInternet: what = "this computer is not connected to a network"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
      .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      what = "the TLS connection could not be established"
    case .badServerResponse, .cannotParseResponse: what = "the server's response was not valid HTTP or ended early"
    case .badURL, .unsupportedURL: what = "the URL cannot be requested"
    case .dataLengthExceedsMaximum: what = "the answer was too large"
    case .cancelled: what = "cancelled"
    case .unknown: what = "the transfer failed"
    default: what = "network error \(nsError.code)"
    }
    let detail = nsError.userInfo[NSLocalizedDescriptionKey] as? String
    guard let detail, !detail.isEmpty, detail != "(null)" else { return what }
    return "\(what) (\(detail))"
  }
}

/// Seconds as a person reads them: `1 s`, `0.5 s`.
enum Seconds {
  static func text(_ seconds: TimeInterval) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
  }
}
