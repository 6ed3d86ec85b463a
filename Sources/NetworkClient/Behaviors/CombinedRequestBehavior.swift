/// Several behaviors acting as one, in the order given (see ``RequestBehavior`` for the order
/// of the hooks). Nested combinations are flattened and empty behaviors dropped.
///
/// An error a behavior throws, other than a ``NetworkError``, becomes
/// ``NetworkError/rejected(by:underlying:)`` naming that behavior.
///
/// ```swift
/// let behavior = CombinedRequestBehavior([UserAgent(), LoggingBehavior { print($0) }])
/// ```
public struct CombinedRequestBehavior: RequestBehavior {
  /// The members in the order they run, flattened: a nested ``CombinedRequestBehavior`` is replaced by its members,
  /// and an ``EmptyRequestBehavior`` is left out.
  public let behaviors: [any RequestBehavior]

  /// Combines `behaviors` to run in the order given (the first one's `around` outermost, signers still modifying
  /// last), flattening nested combinations and dropping empty behaviors.
  public init(_ behaviors: [any RequestBehavior]) {
    self.behaviors = behaviors.flatMap { behavior -> [any RequestBehavior] in
      if let combined = behavior as? CombinedRequestBehavior { return combined.behaviors }
      if behavior is EmptyRequestBehavior { return [] }
      return [behavior]
    }
  }

  /// Every behavior's headers; a later behavior's value wins over an earlier one's.
  public var additionalHeaders: HTTPHeaders {
    var headers = HTTPHeaders()
    for behavior in behaviors {
      for field in behavior.additionalHeaders { headers[field.name] = field.value }
    }
    return headers
  }

  /// Every behavior's credential headers.
  public var credentialHeaders: [String] { behaviors.flatMap(\.credentialHeaders) }

  /// Non-signers in order, then signers in order.
  public func modify(_ request: HTTPRequest) async throws -> HTTPRequest {
    try await modify(request, withCredentials: true)
  }

  /// Without credentials, only the non-signers run, and every credential header is removed
  /// afterwards: the request for an origin that must not receive them.
  func modify(_ request: HTTPRequest, withCredentials: Bool) async throws -> HTTPRequest {
    var request = request
    for behavior in behaviors where !behavior.isSigner {
      request = try await Self.tagging(behavior) { try await behavior.modify(request) }
    }
    guard withCredentials else {
      for name in ["Authorization", "Proxy-Authorization", "Cookie"] + credentialHeaders { request.headers[name] = nil }
      return request
    }
    for behavior in behaviors where behavior.isSigner {
      request = try await Self.tagging(behavior) { try await behavior.modify(request) }
    }
    return request
  }

  public func beforeSend(_ request: HTTPRequest) async {
    for behavior in behaviors { await behavior.beforeSend(request) }
  }

  public func afterSuccess(_ response: HTTPResponse) async throws {
    for behavior in behaviors {
      try await Self.tagging(behavior) { try await behavior.afterSuccess(response) }
    }
  }

  public func afterFailure(_ error: NetworkError, request: HTTPRequest) async {
    for behavior in behaviors { await behavior.afterFailure(error, request: request) }
  }

  /// The first behavior's `around` is the outermost.
  public func around(_ request: HTTPRequest, send: @Sendable (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
    try await Self.around(behaviors[...], request, send: send)
  }

  private static func around(
    _ behaviors: ArraySlice<any RequestBehavior>, _ request: HTTPRequest,
    send: @Sendable (HTTPRequest) async throws -> HTTPResponse
  ) async throws -> HTTPResponse {
    guard let outer = behaviors.first else { return try await send(request) }
    let inner = behaviors.dropFirst()
    return try await tagging(outer) {
      try await outer.around(request) { request in try await around(inner, request, send: send) }
    }
  }

  /// Runs a hook, naming the behavior in any error that is not already a ``NetworkError``.
  static func tagging<T>(_ behavior: any RequestBehavior, _ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as NetworkError {
      throw error
    } catch is CancellationError {
      throw NetworkError.cancelled
    } catch {
      throw NetworkError.rejected(by: String(describing: type(of: behavior)), underlying: error)
    }
  }
}
