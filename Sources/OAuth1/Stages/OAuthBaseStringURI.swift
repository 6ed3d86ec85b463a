/// The base string URI (RFC 5849, section 3.4.1.2): the request URL reduced to what every
/// party agrees on.
///
/// Scheme and host are lowercased, the scheme's default port is dropped (any other port is
/// kept, so `http://h:443` keeps `:443`), the path is kept exactly as sent (`/` when empty),
/// and the query and fragment are removed. A `Host` header, when given, replaces the URL's
/// authority.
///
/// ```swift
/// try OAuthBaseStringURI.make(url: "HTTP://Example.com:80/r%20v/X?id=123")
/// // "http://example.com/r%20v/X"
/// ```
public enum OAuthBaseStringURI {
  /// Normalizes `url` (absolute, as sent), optionally with the `Host` header the server sees.
  public static func make(url: String, host: String? = nil) throws(OAuthError) -> String {
    try RequestTarget.withScratch(url: url, host: host, requireHTTP: false) { target, _, bytes, _ in target.uriString(bytes) }
  }

  /// Normalizes already split URL components: the engine's general routine, for any URL
  /// that is not an ordinary `http(s)://host[:port]/path`.
  public static func make(_ components: OAuthURLComponents) -> String {
    var uri = components.scheme + "://" + components.host
    if let port = components.port, port != components.defaultPort {
      uri += ":" + String(port)
    }
    return uri + components.path
  }
}
