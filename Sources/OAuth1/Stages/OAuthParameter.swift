/// One decoded name/value pair that takes part in a signature.
///
/// Parameters are kept as an ordered array, never a dictionary: OAuth signs every
/// occurrence of a repeated name (`id=1&id=2`), and names that differ only in case are
/// different parameters.
///
/// ```swift
/// let status = OAuthParameter("status", "Hello Ladies + Gentlemen")
/// ```
public struct OAuthParameter: Hashable, Sendable, CustomStringConvertible {
  /// The decoded name, for example `oauth_consumer_key` or `status`.
  public var name: String
  /// The decoded value; an empty string when the pair had no `=`.
  public var value: String

  /// Creates a parameter from its decoded name and value: pass text such as `"Hello Ladies + Gentlemen"`, not its
  /// percent-encoding, which the signing stages apply themselves.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }

  public var description: String { "\(name)=\(value)" }
}
