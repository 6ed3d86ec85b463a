import Foundation
import PercentEncoding

/// A client for one API: it builds requests against a base URL, runs them through request
/// behaviors and a transport, follows redirects (``RedirectPolicy``), and decodes the answers.
/// It knows nothing about any particular authentication scheme: that, like logging, retries
/// and caching, is a behavior.
///
/// ```swift
/// let client = NetworkClient(configuration: RequestConfiguration(
///   baseURL: URL(string: "https://api.example.com/v1")!,
///   defaultBehavior: CombinedRequestBehavior([RetryBehavior(), UserAgent()])))
/// let items = try await client.send(Request<[Item]>(path: "items", query: [("limit", "10")]))
/// ```
public struct NetworkClient: Sendable {
  /// The base URL, default behavior, transport, JSON coders, timeout and redirect policy every request shares.
  public let configuration: RequestConfiguration

  /// Creates a client for the API that `configuration` describes.
  public init(configuration: RequestConfiguration) {
    self.configuration = configuration
  }

  /// Creates a client with the configuration's other defaults: a 30 s timeout, plain `JSONDecoder` and `JSONEncoder`,
  /// and `RedirectPolicy.default`.
  ///
  /// - Parameters:
  ///   - baseURL: the URL every request path is joined to.
  ///   - behavior: runs for every request, before the request's own behavior; none by default.
  ///   - transport: sends the requests; a new ``URLSessionTransport`` by default.
  public init(baseURL: URL, behavior: any RequestBehavior = EmptyRequestBehavior(), transport: any HTTPTransport = DefaultTransport()) {
    self.init(configuration: RequestConfiguration(baseURL: baseURL, defaultBehavior: behavior, transport: transport))
  }

  /// Sends `request` and returns its decoded output.
  public func send<Output>(_ request: Request<Output>) async throws(NetworkError) -> Output {
    try await response(for: request).value
  }

  /// Sends `request` and returns its decoded output with the response it came from (status,
  /// headers such as the rate limit).
  public func response<Output>(for request: Request<Output>) async throws(NetworkError) -> Response<Output> {
    let behavior = CombinedRequestBehavior([configuration.defaultBehavior, request.behavior])
    let prepared = try prepare(request)
    // A multipart body with files was written to a temporary file for the transport to
    // stream: it goes when the request is done, after every retry (a `.file` body is the caller's).
    defer {
      if case .multipart = request.body, let file = prepared.bodyFile { try? FileManager.default.removeItem(at: file) }
    }
    let response: HTTPResponse
    do {
      response = try await behavior.around(prepared) { request in
        try await exchange(request, behavior: behavior)
      }
    } catch {
      throw Self.networkError(error, request: prepared)
    }
    do {
      return Response(value: try request.decode(response, configuration.decoder), response: response)
    } catch {
      let failure = NetworkError.decoding(DecodingFailure(type: Output.self, error: error, response: response))
      await behavior.afterFailure(failure, request: response.request)
      throw failure
    }
  }

  /// One attempt: for each hop of its redirects, headers, modifications (signers last, and only
  /// while the credentials may go along), before-send and the transport; then the status check
  /// and after-success; after-failure when any of it fails.
  private func exchange(_ first: HTTPRequest, behavior: CombinedRequestBehavior) async throws(NetworkError) -> HTTPResponse {
    var hop = first
    var credentialed = true
    while true {
      if Task.isCancelled { throw .cancelled }
      var request = hop
      do {
        for field in behavior.additionalHeaders where !request.headers.contains(field.name) {
          request.headers.add(name: field.name, value: field.value)
        }
        request = try await behavior.modify(request, withCredentials: credentialed)
        if let reason = request.headers.invalidFieldReason { throw NetworkError.invalidRequest(reason: reason) }
        await behavior.beforeSend(request)
        let response: HTTPResponse
        do {
          let transport = configuration.transport
          let sent = request
          response = try await Deadline.within(configuration.totalTimeout(for: request)) { try await transport.send(sent) }
        } catch {
          throw Self.networkError(error, request: request)
        }
        if let next = try configuration.redirects.next(after: response, to: hop, start: first.url, credentialed: credentialed) {
          credentialed = next.redirections.last?.keptCredentials ?? credentialed
          hop = next
          continue
        }
        guard response.isSuccess else { throw NetworkError.httpStatus(HTTPStatusFailure(response: response)) }
        try await behavior.afterSuccess(response)
        return response
      } catch {
        let failure = Self.networkError(error, request: request)
        await behavior.afterFailure(failure, request: request)
        throw failure
      }
    }
  }

  /// The request as the transport will first see it, before any behavior: the URL joined and
  /// encoded, the body encoded. A multipart body with files is written to a new private
  /// temporary file (``HTTPRequest/bodyFile``, mode 0600): ``send(_:)`` and
  /// ``response(for:)`` remove theirs when the request is done; a caller of `prepare` alone
  /// removes it. A ``RequestBody/file(_:contentType:)`` body is the caller's file, never removed.
  public func prepare<Output>(_ request: Request<Output>) throws(NetworkError) -> HTTPRequest {
    let url = try URLBuilder.url(base: configuration.baseURL, path: request.path, query: request.query)
    var headers = request.headers
    var body: Data? = nil
    switch request.body {
    case .none:
      break
    case .form(let pairs):
      body = Data(PercentEncoding.form(pairs.map { (name: $0.0, value: $0.1) }).utf8)
      if !headers.contains("Content-Type") { headers["Content-Type"] = "application/x-www-form-urlencoded" }
    case .json(let value):
      do {
        body = try configuration.encoder.encode(value)
      } catch {
        throw .invalidRequest(reason: "the JSON body (\(type(of: value))) does not encode: \(error)")
      }
      if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
    case .data(let data, let contentType):
      body = data
      if !headers.contains("Content-Type") { headers["Content-Type"] = contentType }
    case .file(let file, let contentType):
      if !headers.contains("Content-Type") { headers["Content-Type"] = contentType }
      var prepared = HTTPRequest(
        method: request.method, url: url, headers: headers, body: nil, isIdempotent: request.isIdempotent,
        timeout: request.timeout ?? configuration.timeout)
      prepared.bodyFile = file
      return prepared
    case .multipart(let form):
      if !headers.contains("Content-Type") { headers["Content-Type"] = form.contentType }
      do throws(MultipartFormData.Failure) {
        if form.hasFiles {
          // A new file only this user can read (0600, created exclusively, never through a
          // link); removed here when the body cannot be written, else after the request.
          let created: (url: URL, handle: FileHandle)
          do {
            created = try PrivateFile.createUnique(in: FileManager.default.temporaryDirectory, prefix: "networkclient-multipart-")
          } catch {
            throw MultipartFormData.Failure(.unwritable(path: FileManager.default.temporaryDirectory.path), error.description)
          }
          let file = created.url
          _ = try form.write(to: created.handle, at: file)
          var prepared = HTTPRequest(
            method: request.method, url: url, headers: headers, body: nil, isIdempotent: request.isIdempotent,
            timeout: request.timeout ?? configuration.timeout)
          prepared.bodyFile = file
          return prepared
        }
        body = try form.encoded()
      } catch {
        throw .invalidRequest(reason: "the multipart body cannot be written: \(error.description)")
      }
    }
    return HTTPRequest(
      method: request.method, url: url, headers: headers, body: body, isIdempotent: request.isIdempotent,
      timeout: request.timeout ?? configuration.timeout)
  }

  static func networkError(_ error: any Error, request: HTTPRequest) -> NetworkError {
    switch error {
    case let error as NetworkError: return error
    case is CancellationError: return .cancelled
    case let error as URLError where error.code == .cancelled: return .cancelled
    default: return .transport(TransportFailure(request: request, underlying: error))
    }
  }
}

/// A decoded value and the response it came from.
public struct Response<Value> {
  /// The output the request's `decode` made from the response.
  public let value: Value
  /// The response the value was decoded from: status, headers (rate limit, `ETag`), body, and the final request.
  public let response: HTTPResponse
}

extension Response: Sendable where Value: Sendable {}
