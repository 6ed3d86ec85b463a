#if os(Linux)
  /// The transport every client of the package uses unless given another: ``CurlTransport`` on
  /// Linux (flat memory however many requests a service sends), ``URLSessionTransport`` on
  /// Apple platforms. Both follow no redirect and keep no cookie or cache.
  ///
  /// ```swift
  /// let client = NetworkClient(baseURL: api, transport: DefaultTransport())
  /// ```
  public typealias DefaultTransport = CurlTransport
#else
  /// The transport every client of the package uses unless given another: ``CurlTransport`` on
  /// Linux (flat memory however many requests a service sends), ``URLSessionTransport`` on
  /// Apple platforms. Both follow no redirect and keep no cookie or cache.
  ///
  /// ```swift
  /// let client = NetworkClient(baseURL: api, transport: DefaultTransport())
  /// ```
  public typealias DefaultTransport = URLSessionTransport
#endif
