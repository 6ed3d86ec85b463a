extension OAuthVerifier {
  /// How much of a request the verifier reads before it has checked any credential: the parts
  /// an unauthenticated sender controls, each capped, so that no request costs more than a
  /// known amount of time and memory.
  ///
  /// The verifier reads the `Authorization` header, the query and an
  /// `application/x-www-form-urlencoded` body, and builds the signature base string from them,
  /// before it can tell whether the sender holds a secret. That work is linear in their size;
  /// these limits bound the size. Each is checked before the part is read (a size) or as soon as
  /// it is passed (a count), and refused as `parameter_rejected` with the HTTP status a server
  /// would give it (``OAuthVerificationError/httpStatus``): 431 for the header, 414 for the URL,
  /// 413 for the body, 400 for the count of `oauth_*` parameters.
  ///
  /// The defaults are far above what real OAuth 1.0a clients send (a header of a few hundred
  /// bytes with at most ten `oauth_*` parameters) and at or above the limits of common HTTP
  /// servers in front of a provider (8 KiB request lines and 8–16 KiB headers); a form body of
  /// 16 MiB holds X's largest simple media upload (5 MB, base64 in the form). Raise one for a
  /// provider that takes more; lower them to shed hostile requests sooner.
  ///
  /// ```swift
  /// var options = OAuthVerifier.Options()
  /// options.limits.maximumFormBodyBytes = 64 << 20  // uploads of up to 64 MiB in a form body
  /// let verifier = OAuthVerifier(credentials: lookup, options: options)
  /// ```
  public struct Limits: Sendable, Hashable {
    /// The longest URL read, in UTF-8 bytes, query included: 65,536 by default (414 past it).
    public var maximumURLBytes: Int
    /// The longest `Authorization: OAuth ...` header read, in UTF-8 bytes: 16,384 by default (431
    /// past it). A header of another scheme is not read, whatever its size.
    public var maximumAuthorizationHeaderBytes: Int
    /// The largest `application/x-www-form-urlencoded` body read, in bytes: 16 MiB by default
    /// (413 past it). Other bodies are not parsed; one with `oauth_body_hash` is hashed only
    /// after the signature checked out.
    public var maximumFormBodyBytes: Int
    /// The most parameters read in all: the query's and the form body's `name=value` pairs and
    /// the header's fields together; 10,000 by default. Past it the request is refused with the
    /// status of the part where the count ran over (414, 413 or 431).
    public var maximumParameters: Int
    /// The most `oauth_*` parameters read, repeats included, wherever they were sent: 64 by
    /// default (400 past it). RFC 5849 defines nine and the body hash extension one more.
    public var maximumProtocolParameters: Int

    /// Creates limits; each default is described with its property.
    /// - Parameters:
    ///   - maximumURLBytes: The longest URL, in bytes; 65,536 by default.
    ///   - maximumAuthorizationHeaderBytes: The longest OAuth `Authorization` header, in bytes; 16,384 by default.
    ///   - maximumFormBodyBytes: The largest form body, in bytes; 16 MiB by default.
    ///   - maximumParameters: The most query, form and header parameters together; 10,000 by default.
    ///   - maximumProtocolParameters: The most `oauth_*` parameters, repeats included; 64 by default.
    public init(
      maximumURLBytes: Int = 65_536, maximumAuthorizationHeaderBytes: Int = 16_384, maximumFormBodyBytes: Int = 16 << 20,
      maximumParameters: Int = 10_000, maximumProtocolParameters: Int = 64
    ) {
      self.maximumURLBytes = maximumURLBytes
      self.maximumAuthorizationHeaderBytes = maximumAuthorizationHeaderBytes
      self.maximumFormBodyBytes = maximumFormBodyBytes
      self.maximumParameters = maximumParameters
      self.maximumProtocolParameters = maximumProtocolParameters
    }

    /// No limit but the engine's own: a request of up to 268 MB (its scratch memory holds about
    /// five times the request, with 32-bit offsets), with any number of parameters. For tests
    /// and benchmarks of the parser itself; a server facing the network keeps limits.
    public static let engineMaximum = Limits(
      maximumURLBytes: .max, maximumAuthorizationHeaderBytes: .max, maximumFormBodyBytes: .max, maximumParameters: .max,
      maximumProtocolParameters: .max)
  }
}
