import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The request to sign, exactly as it will be sent: method, absolute URL with its raw
/// query, body and content type.
///
/// Only an `application/x-www-form-urlencoded` body is signed parameter by parameter; any
/// other body is covered only through `oauth_body_hash`, if asked for.
///
/// ```swift
/// let request = OAuthRequest(
///   method: "POST",
///   url: "https://api.x.com/1.1/statuses/update.json?include_entities=true",
///   body: Data("status=Hello%20Ladies%20%2B%20Gentlemen".utf8),
///   contentType: "application/x-www-form-urlencoded")
/// ```
public struct OAuthRequest: Sendable, Hashable {
  /// The HTTP method; uppercased when signed.
  public var method: String
  /// The absolute URL as sent, with its raw, already-encoded query.
  public var url: String
  /// The body, if any.
  public var body: Data?
  /// The `Content-Type` header, if any.
  public var contentType: String?
  /// A `Host` header that differs from the URL's authority (behind a proxy), if any.
  public var host: String?

  /// Describes a request to sign or verify. Nothing is checked here: a bad URL is reported when the request is signed or verified.
  /// - Parameters:
  ///   - method: The HTTP method, `GET` by default; uppercased when signed.
  ///   - url: The absolute `http` or `https` URL as sent, with its query already percent-encoded as it goes on the wire.
  ///   - body: The body, `nil` (the default) for none.
  ///   - contentType: The `Content-Type` header; only `application/x-www-form-urlencoded` makes the body's parameters signed.
  ///   - host: The `Host` header when it differs from the URL's authority (behind a proxy): the base string URI is built with it.
  ///     `nil` (the default) uses the URL's host and port.
  public init(method: String = "GET", url: String, body: Data? = nil, contentType: String? = nil, host: String? = nil) {
    self.method = method
    self.url = url
    self.body = body
    self.contentType = contentType
    self.host = host
  }

  /// The request a `URLRequest` describes. Its URL is taken as `absoluteString`, which keeps
  /// the query and path escapes as they will be sent.
  public init(_ request: URLRequest) throws(OAuthError) {
    guard let url = request.url else { throw .relativeURL("") }
    self.init(
      method: request.httpMethod ?? "GET",
      url: url.absoluteString,
      body: request.httpBody,
      contentType: request.value(forHTTPHeaderField: "Content-Type"),
      host: nil)
  }

  /// Whether the body is a form whose parameters are signed: the media type is
  /// `application/x-www-form-urlencoded`, whatever its case and parameters.
  public var hasFormBody: Bool {
    guard let contentType else { return false }
    // The usual spelling, exactly (this runs on every signature); otherwise the media type
    // before any ";", without the white space around it, compared ignoring ASCII case.
    if contentType == "application/x-www-form-urlencoded" { return true }
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    let mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: isSpace).reversed().drop(while: isSpace).reversed()
    return mediaType.elementsEqual("application/x-www-form-urlencoded".utf8) { lhs, rhs in
      (lhs >= UInt8(ascii: "A") && lhs <= UInt8(ascii: "Z") ? lhs + 32 : lhs) == rhs
    }
  }

  /// The form body's bytes when the body is a signed form (empty when there is none), else
  /// `nil`: `nil` means exactly "not a form".
  var formBody: Data? {
    hasFormBody ? (body ?? Data()) : nil
  }
}
