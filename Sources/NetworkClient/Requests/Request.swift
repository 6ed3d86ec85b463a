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
  public var method: HTTPMethod
  /// Joined to the base URL whether or not either has a slash at the seam.
  public var path: String
  /// Query parameters in order; names may repeat. A `nil` value sends the bare name.
  public var query: [QueryItem]
  public var headers: HTTPHeaders
  public var body: RequestBody
  /// Behavior for this request only, combined after the client's default one.
  public var behavior: any RequestBehavior
  /// Overrides whether a retry may send the request again (by default: the method decides).
  public var isIdempotent: Bool?
  /// Seconds to wait for the response; the configuration's timeout when `nil`.
  public var timeout: TimeInterval?
  /// Turns the response into `Output`.
  public var decode: @Sendable (HTTPResponse, JSONDecoder) throws -> Output

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
  case none
  /// `application/x-www-form-urlencoded` pairs, encoded like the query.
  case form([(String, String)])
  /// A JSON body, encoded with the configuration's encoder.
  case json(any Encodable & Sendable)
  /// Bytes with their content type.
  case data(Data, contentType: String)
}
