import Foundation
import NetworkClient
import OAuth1
import OAuthNetworking

/// Sends grades to a platform's outcome service (Basic Outcomes): each POX message signed with
/// OAuth 1.0a and `oauth_body_hash` by `OAuthRequestBehavior`, sent by a `NetworkClient`
/// that retries as it retries (each attempt signed afresh; the three operations are idempotent),
/// and the answer read within a size limit.
///
/// ```swift
/// let client = LTIOutcomesClient(consumer: Credentials(key: "lms-key", secret: "lms-secret"))
/// if let outcomes = launch.outcomeService {
///   let answer = try await client.replaceResult(at: outcomes.url, sourcedID: outcomes.resultSourcedID, score: 0.92)
///   print(answer.status)  // success
/// }
/// ```
public struct LTIOutcomesClient: Sendable {
  /// The consumer key and secret the platform shared with the tool; the secret is secret.
  public let consumer: Credentials
  /// The signature method, HMAC-SHA1 (what platforms expect) unless a platform asks for another.
  public let signatureMethod: OAuthSignatureMethod
  /// The digest of `oauth_body_hash`: SHA-1, as the specification says, unless a platform asks otherwise.
  public let bodyHash: OAuthDigestAlgorithm
  private let retry: RetryBehavior?
  private let transport: any HTTPTransport

  /// A client signing with `consumer`.
  ///
  /// - Parameters:
  ///   - consumer: the consumer key and secret of the launch.
  ///   - signatureMethod: HMAC-SHA1 by default.
  ///   - bodyHash: the body hash's digest, SHA-1 by default.
  ///   - retry: how failed attempts are retried (`nil` for none); a `RetryBehavior` by default.
  ///   - transport: how requests are sent; the default transport by default (a test passes a stub).
  public init(
    consumer: Credentials, signatureMethod: OAuthSignatureMethod = .hmacSHA1, bodyHash: OAuthDigestAlgorithm = .sha1,
    retry: RetryBehavior? = RetryBehavior(), transport: any HTTPTransport = DefaultTransport()
  ) {
    self.consumer = consumer
    self.signatureMethod = signatureMethod
    self.bodyHash = bodyHash
    self.retry = retry
    self.transport = transport
  }

  /// Sets the grade in `sourcedID`'s cell at `serviceURL`; the arguments are
  /// ``LTIOutcomeRequest/replaceResult(sourcedID:score:resultData:totalScore:submittedAt:messageIdentifier:)``'s,
  /// checked before anything is sent.
  public func replaceResult(
    at serviceURL: String, sourcedID: String, score: Double?, resultData: LTIResultData? = nil, totalScore: Double? = nil,
    submittedAt: String? = nil
  ) async throws(LTIError) -> LTIOutcomeResponse {
    try await send(
      .replaceResult(sourcedID: sourcedID, score: score, resultData: resultData, totalScore: totalScore, submittedAt: submittedAt),
      to: serviceURL)
  }

  /// Reads the grade in `sourcedID`'s cell; the answer's ``LTIOutcomeResponse/score``.
  public func readResult(at serviceURL: String, sourcedID: String) async throws(LTIError) -> LTIOutcomeResponse {
    try await send(.readResult(sourcedID: sourcedID), to: serviceURL)
  }

  /// Clears the grade in `sourcedID`'s cell.
  public func deleteResult(at serviceURL: String, sourcedID: String) async throws(LTIError) -> LTIOutcomeResponse {
    try await send(.deleteResult(sourcedID: sourcedID), to: serviceURL)
  }

  /// Sends `request` to `serviceURL` and reads the answer.
  ///
  /// - Throws: ``LTIError/invalidRequest(_:)`` for a URL that is not http(s);
  ///   ``LTIError/outcomeServiceFailed(_:)`` when the service cannot be reached or answers an
  ///   HTTP error; ``LTIError/malformedXML(_:)`` or ``LTIError/unsupportedOutcome(_:)`` for an
  ///   answer that is not a POX response.
  public func send(_ request: LTIOutcomeRequest, to serviceURL: String) async throws(LTIError) -> LTIOutcomeResponse {
    guard let url = URL(string: serviceURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
      throw .invalidRequest("the outcome service URL \(LTIError.quoted(serviceURL)) is not an http(s) URL")
    }
    let signer = OAuthRequestBehavior(
      consumer: consumer, configuration: OAuthSigner.Configuration(signatureMethod: signatureMethod, bodyHash: bodyHash))
    let behaviors: [any RequestBehavior] = (retry.map { [$0] } ?? []) + [signer]
    let client = NetworkClient(baseURL: url, behavior: CombinedRequestBehavior(behaviors), transport: transport)
    let response: HTTPResponse
    do {
      response = try await client.send(
        Request<HTTPResponse>(method: .post, path: "", body: .data(request.xml, contentType: "application/xml"), isIdempotent: true))
    } catch {
      throw .outcomeServiceFailed(Self.describe(error))
    }
    return try LTIOutcomeResponse(xml: response.body)
  }

  /// A network failure in words: the status and the start of the answer, or the transport's reason.
  private static func describe(_ error: NetworkError) -> String {
    guard case .httpStatus(let failure) = error else { return "\(error)" }
    let excerpt = String(decoding: failure.body.prefix(200), as: UTF8.self)
    return "HTTP \(failure.statusCode): \(LTIError.quoted(excerpt))"
  }
}
