import Foundation

/// An endpoint call as a value: method, path relative to the client's base URL, query, headers,
/// body, how to decode the answer, and behaviors of its own.
///
/// ```swift
/// struct User: Decodable { let id: String; let name: String }
///
/// let me = Request<User>(path: "users/me", query: [("user.fields", "created_at")])
/// let post = Request<Data>(method: .post, path: "notes", body: .form([("text", "a+b")]))
/// ```
public struct Request<Output>: Sendable {
  /// The method, `GET` by default; it decides whether a retry may repeat the request unless ``isIdempotent`` says.
  public var method: HTTPMethod
  /// Joined to the base URL whether or not either has a slash at the seam.
  public var path: String
  /// Query parameters in order; names may repeat. A `nil` value sends the bare name.
  public var query: [QueryItem]
  /// Headers for this request; each wins over a behavior's ``RequestBehavior/additionalHeaders`` of the same name,
  /// and a `Content-Type` here wins over the one the body implies.
  public var headers: HTTPHeaders
  /// The body, `.none` by default; the client encodes it and sets its `Content-Type` unless ``headers`` has one.
  public var body: RequestBody
  /// Behavior for this request only, combined after the client's default one.
  public var behavior: any RequestBehavior
  /// Overrides whether a retry may send the request again (by default: the method decides).
  public var isIdempotent: Bool?
  /// Seconds to wait for the response; the configuration's timeout when `nil`.
  public var timeout: TimeInterval?
  /// Turns the response into `Output`.
  public var decode: @Sendable (HTTPResponse, JSONDecoder) throws -> Output

  /// A request whose response `decode` turns into `Output`, for outputs the other initializers do not cover.
  ///
  /// - Parameters:
  ///   - method: the HTTP method; `GET` by default.
  ///   - path: joined to the client's base URL, whether or not either has a slash at the seam.
  ///   - query: parameters in order, names may repeat, a `nil` value sends the bare name; encoded strictly, so
  ///     `+` arrives as `%2B`. None by default.
  ///   - headers: sent with the request, winning over a behavior's headers of the same name; none by default.
  ///   - body: the body; `.none` by default.
  ///   - behavior: runs for this request only, after the client's default behavior; none by default.
  ///   - isIdempotent: whether a retry may send the request again; `nil` (the default) lets the method decide.
  ///   - timeout: seconds to wait for the response; `nil` (the default) uses the configuration's timeout.
  ///   - decode: turns the response into `Output`, given the configuration's `JSONDecoder`; what it throws fails
  ///     the request with ``NetworkError/decoding(_:)``.
  public init(
    method: HTTPMethod = .get,
    path: String,
    query: [QueryItem] = [],
    headers: HTTPHeaders = [:],
    body: RequestBody = .none,
    behavior: any RequestBehavior = EmptyRequestBehavior(),
    isIdempotent: Bool? = nil,
    timeout: TimeInterval? = nil,
    decode: @escaping @Sendable (HTTPResponse, JSONDecoder) throws -> Output
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.behavior = behavior
    self.isIdempotent = isIdempotent
    self.timeout = timeout
    self.decode = decode
  }
}

extension Request where Output: Decodable & Sendable {
  /// A request whose JSON response decodes as `Output`.
  public init(
    method: HTTPMethod = .get, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: RequestBody = .none,
    behavior: any RequestBehavior = EmptyRequestBehavior(), isIdempotent: Bool? = nil, timeout: TimeInterval? = nil
  ) {
    self.init(
      method: method, path: path, query: query, headers: headers, body: body, behavior: behavior, isIdempotent: isIdempotent,
      timeout: timeout, decode: { response, decoder in try decoder.decode(Output.self, from: response.body) })
  }
}

extension Request where Output == Data {
  /// A request that returns the raw body.
  public init(
    method: HTTPMethod = .get, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: RequestBody = .none,
    behavior: any RequestBehavior = EmptyRequestBehavior(), isIdempotent: Bool? = nil, timeout: TimeInterval? = nil
  ) {
    self.init(
      method: method, path: path, query: query, headers: headers, body: body, behavior: behavior, isIdempotent: isIdempotent,
      timeout: timeout, decode: { response, _ in response.body })
  }
}

extension Request where Output == HTTPResponse {
  /// A request that returns the whole response: status, headers and body.
  public init(
    method: HTTPMethod = .get, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: RequestBody = .none,
    behavior: any RequestBehavior = EmptyRequestBehavior(), isIdempotent: Bool? = nil, timeout: TimeInterval? = nil
  ) {
    self.init(
      method: method, path: path, query: query, headers: headers, body: body, behavior: behavior, isIdempotent: isIdempotent,
      timeout: timeout, decode: { response, _ in response })
  }
}

/// One query parameter: `("ids", "1,2")`, or `("expansions", nil)` for a bare name.
public typealias QueryItem = (name: String, value: String?)

/// A request body.
public enum RequestBody: Sendable {
  /// No body (the default), and no `Content-Type` added.
  case none
  /// `application/x-www-form-urlencoded` pairs, encoded like the query.
  case form([(String, String)])
  /// A JSON body, encoded with the configuration's encoder.
  case json(any Encodable & Sendable)
  /// Bytes with their content type.
  case data(Data, contentType: String)
  /// A `multipart/form-data` body (RFC 7578); file parts are streamed from disk.
  case multipart(MultipartFormData)
  /// The bytes of a file, streamed from disk by the transport, with their content type: for a
  /// body too large to hold in memory (a compliance job's ids). The file stays the caller's.
  case file(URL, contentType: String)
}
