/// Fixed headers on every request: the `User-Agent` some APIs require (Discogs refuses
/// requests without one), an `Accept`, a version header.
///
/// ```swift
/// let client = NetworkClient(
///   baseURL: URL(string: "https://api.discogs.com")!,
///   behavior: CombinedRequestBehavior([HeadersBehavior(["User-Agent": "MyApp/1.0 +https://example.com"]), signer]))
/// ```
///
/// Not for credentials: a header that is a secret belongs to a behavior that lists it in
/// `credentialHeaders`, so that a redirect to another origin drops it.
public struct HeadersBehavior: RequestBehavior {
  /// The headers added to every request (a request's own header of the same name wins).
  public let additionalHeaders: HTTPHeaders

  /// Adds `headers` to every request.
  public init(_ headers: HTTPHeaders) {
    additionalHeaders = headers
  }
}
