import PercentEncoding

/// Serializes parameters for the two other transmission forms (RFC 5849, sections 3.5.2 and
/// 3.5.3): appended to the query, or as an `application/x-www-form-urlencoded` body.
///
/// Both use the same encoding as the signature (RFC 3986 unreserved set, `%20` for a space,
/// never `+`), so what travels is exactly what was signed.
///
/// ```swift
/// OAuthFormEncoding.encode([OAuthParameter("oauth_signature", "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")])
/// // "oauth_signature=tR3%2BTy81lMeYAr%2FFid0kMTYa%2FWM%3D"
/// ```
public enum OAuthFormEncoding {
  /// `enc(name)=enc(value)` pairs joined with `&`, in the given order.
  public static func encode(_ parameters: [OAuthParameter]) -> String {
    PercentEncoding.form(parameters.lazy.map { (name: $0.name, value: $0.value) })
  }

  /// `url` with `parameters` appended to its query (after a `?` or `&` as needed), keeping
  /// any fragment at the end.
  public static func appending(_ parameters: [OAuthParameter], toQueryOf url: String) -> String {
    guard !parameters.isEmpty else { return url }
    var base = Substring(url)
    var fragment: Substring = ""
    if let hash = base.firstIndex(of: "#") {
      fragment = base[hash...]
      base = base[..<hash]
    }
    let separator: String
    if let questionMark = base.firstIndex(of: "?") {
      separator = base[base.index(after: questionMark)...].isEmpty || base.hasSuffix("&") ? "" : "&"
    } else {
      separator = "?"
    }
    return base + separator + encode(parameters) + fragment
  }
}
