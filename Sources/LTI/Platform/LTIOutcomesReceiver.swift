import Foundation
import OAuth1

/// The platform's outcome service: verifies each grade a tool sends (the OAuth signature, the
/// nonce, the timestamp, and `oauth_body_hash` against the XML as received, which must be
/// there), reads the POX request, and writes the POX answer.
///
/// ```swift
/// let receiver = LTIOutcomesReceiver(secrets: ["lms-key": "lms-secret"])
/// let (status, xml) = await receiver.answer(method: "POST", url: url, body: body, headers: headers) { received in
///   gradebook[received.request.sourcedID] = received.score
///   return LTIOutcomeResponse(status: .success, description: "recorded", answering: received.request)
/// }
/// ```
public struct LTIOutcomesReceiver: Sendable {
  /// A verified outcome request.
  public struct Received: Sendable, Hashable {
    /// The consumer key the tool signed with.
    public let consumerKey: String
    /// The request, read.
    public let request: LTIOutcomeRequest

    /// The score of a `replaceResult`, if it carries one.
    public var score: Double? {
      if case .replaceResult(let score, _, _, _) = request.operation { return score }
      return nil
    }
  }

  /// The verifier every request goes through.
  public let verifier: OAuthVerifier

  /// A receiver over `credentials` and `nonceStore` (`nil` for one in memory).
  public init(
    credentials: any OAuthCredentialLookup, nonceStore: (any OAuthNonceStore)? = nil,
    options: OAuthVerifier.Options = LTILaunchVerifier.defaultOptions
  ) {
    verifier = OAuthVerifier(credentials: credentials, nonceStore: nonceStore, options: options)
  }

  /// A receiver for the tools whose consumer keys and secrets are in `secrets`.
  public init(secrets: [String: String], nonceStore: (any OAuthNonceStore)? = nil, options: OAuthVerifier.Options = LTILaunchVerifier.defaultOptions)
  {
    let consumers = secrets.mapValues { OAuthConsumer(secret: $0) }
    self.init(credentials: InMemoryCredentialLookup(consumers: consumers), nonceStore: nonceStore, options: options)
  }

  /// Verifies an outcome request and reads it.
  ///
  /// - Parameters:
  ///   - method: the request's method (`POST`).
  ///   - url: the URL as received, with its raw query.
  ///   - body: the XML as received.
  ///   - headers: the request's headers: `Authorization` and `Content-Type` are read from them.
  ///   - peerAddress: the connection's remote address, for a proxy's headers.
  /// - Throws: ``LTIError``: ``LTIError/badSignature(advice:)`` for a wrong signature, a missing
  ///   or wrong body hash; the verifier's other refusals; then the XML's.
  public func verify(
    method: String, url: String, body: Data, headers: [(name: String, value: String)], peerAddress: String? = nil
  ) async throws(LTIError) -> Received {
    func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name }?.value }
    guard body.count <= LTIOutcomeRequest.maximumXMLBytes else {
      throw .malformedXML("the body is \(body.count) bytes, over the limit of \(LTIOutcomeRequest.maximumXMLBytes)")
    }
    let request = OAuthRequest(method: method, url: url, body: body, contentType: header("content-type") ?? "application/xml")
    guard !request.hasFormBody else { throw .invalidRequest("an outcome request is XML, not a form") }
    let authorization = header("authorization")
    guard Self.carriesBodyHash(authorization: authorization, url: url) else {
      throw .badSignature(advice: "the request has no oauth_body_hash, so its body is not signed")
    }
    let verified: VerifiedRequest
    do {
      verified = try await verifier.verify(request, authorization: authorization, headers: headers, peerAddress: peerAddress)
    } catch {
      throw LTIError(error)
    }
    return Received(consumerKey: verified.consumerKey, request: try LTIOutcomeRequest(xml: body))
  }

  /// Verifies and reads a request, lets `handle` act on it, and returns the status and POX XML
  /// to answer with: `handle`'s answer (200); a POX `failure` for a request that fails
  /// verification (401, or 400 for one that cannot be read) and `unsupported` for an operation
  /// that is not Basic Outcomes'.
  public func answer(
    method: String, url: String, body: Data, headers: [(name: String, value: String)], peerAddress: String? = nil,
    handle: (Received) async -> LTIOutcomeResponse
  ) async -> (status: Int, xml: Data) {
    do {
      let received = try await verify(method: method, url: url, body: body, headers: headers, peerAddress: peerAddress)
      return (200, await handle(received).xml)
    } catch .unsupportedOutcome(let reason) {
      return (200, LTIOutcomeResponse(status: .unsupported, description: reason, answering: nil).xml)
    } catch {
      return (error.httpStatus, LTIOutcomeResponse(status: .failure, description: error.description, answering: nil).xml)
    }
  }

  /// Whether the protocol parameters (in the header, else the query) include `oauth_body_hash`.
  private static func carriesBodyHash(authorization: String?, url: String) -> Bool {
    if let authorization, let fields = try? OAuthAuthorizationHeader.parse(authorization) {
      return fields.parameters.contains { $0.name == "oauth_body_hash" && !$0.value.isEmpty }
    }
    guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
    return query.split(separator: "&").contains { $0.hasPrefix("oauth_body_hash=") && $0.count > "oauth_body_hash=".count }
  }
}
