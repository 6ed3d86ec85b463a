import OAuth1

/// Why an LTI message was refused, in words a tool can show to a teacher: each case names what
/// to fix, and none carries a secret, a signature or a body.
///
/// A launch that fails verification becomes one of the first cases; an outcome that cannot be
/// sent or read, one of the last. ``httpStatus`` is the status to answer with.
///
/// ```swift
/// do {
///   let launch = try await verifier.verify(method: "POST", url: url, body: body)
/// } catch .replayedNonce {
///   // the browser's back button, or an attacker: ask the user to launch again from the course
/// } catch {
///   print(error.httpStatus, error)  // 401 the signature does not match the launch; ...
/// }
/// ```
public enum LTIError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A parameter the message must carry is absent or empty (`resource_link_id`, `lti_message_type`…).
  case missingParameter(String)
  /// `lti_message_type` is not one this call accepts: the received value.
  case wrongMessageType(String)
  /// `lti_version` is not `LTI-1p0`: the received value.
  case unsupportedVersion(String)
  /// The OAuth signature or the body hash does not match the message: a wrong secret, a URL
  /// different from the one the platform signed (a proxy), or a tampered field. The advice says which.
  case badSignature(advice: String)
  /// The nonce was used already: a replayed launch (or the browser's back button).
  case replayedNonce
  /// `oauth_timestamp` is outside the accepted window: the platform's or the tool's clock is off,
  /// or the launch is old. The window accepted, when known.
  case staleTimestamp(acceptable: ClosedRange<Int64>?)
  /// No secret is known for `oauth_consumer_key`: the key as sent (not a secret).
  case unknownConsumer(String)
  /// Any other refusal of the OAuth verifier (a method not allowed, a limit passed…), with its
  /// `oauth_problem`, advice, and the HTTP status it answers with (413 for a body too large,
  /// 503 for a nonce store that cannot answer…).
  case refused(problem: OAuthProblem, advice: String, status: Int)
  /// A score outside 0…1, or not a finite number; nothing was sent.
  case invalidScore(String)
  /// An XML body that is malformed, too large, too deep, or declares a DOCTYPE or entities.
  case malformedXML(String)
  /// An outcome message that is well-formed XML but not a POX request or response this library reads.
  case unsupportedOutcome(String)
  /// The outcome service could not be reached or answered an HTTP error: what happened.
  case outcomeServiceFailed(String)
  /// A value that cannot be signed or sent (a URL that is not http(s), a form that is not UTF-8).
  case invalidRequest(String)

  /// The HTTP status a tool or platform answers with for this error.
  public var httpStatus: Int {
    switch self {
    case .missingParameter, .wrongMessageType, .unsupportedVersion, .invalidScore, .malformedXML, .unsupportedOutcome, .invalidRequest: 400
    case .badSignature, .replayedNonce, .staleTimestamp, .unknownConsumer: 401
    case .refused(_, _, let status): status
    case .outcomeServiceFailed: 502
    }
  }

  public var description: String {
    switch self {
    case .missingParameter(let name): "the LTI message lacks \(name)"
    case .wrongMessageType(let type): "lti_message_type \(Self.quoted(type)) is not accepted here"
    case .unsupportedVersion(let version): "lti_version \(Self.quoted(version)) is not supported; LTI 1.1 launches send LTI-1p0"
    case .badSignature(let advice): "bad signature: \(advice)"
    case .replayedNonce: "this launch was used already (its nonce was seen): launch the tool again from the course"
    case .staleTimestamp(let window):
      "the launch's timestamp is outside the accepted window\(window.map { " \($0.lowerBound)-\($0.upperBound)" } ?? ""): check the clocks, or launch again"
    case .unknownConsumer(let key): "no secret is known for the consumer key \(Self.quoted(key))"
    case .refused(let problem, let advice, _): "\(problem.rawValue): \(advice)"
    case .invalidScore(let score): "the score \(score) is not a finite number from 0 to 1; nothing was sent"
    case .malformedXML(let reason): "the XML cannot be read: \(reason)"
    case .unsupportedOutcome(let reason): "the outcome message is not supported: \(reason)"
    case .outcomeServiceFailed(let reason): "the outcome service failed: \(reason)"
    case .invalidRequest(let reason): "the request cannot be made: \(reason)"
    }
  }

  /// A received value for a message: quoted, control characters dropped, at most 100 characters.
  static func quoted(_ value: String) -> String {
    let visible = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
    let text = String(String.UnicodeScalarView(visible.prefix(100)))
    return "\"\(text)\(visible.count > 100 ? "…" : "")\""
  }

  /// The LTI error a verifier's refusal means: for a platform or tool that runs
  /// `OAuthVerifier` itself (a Content-Item return, say) and reports as the library does.
  ///
  /// ```swift
  /// do { _ = try await verifier.verify(request, authorization: nil) } catch { print(LTIError(error)) }
  /// ```
  public init(_ error: OAuthVerificationError) {
    switch error.problem {
    case .signatureInvalid: self = .badSignature(advice: error.advice)
    case .nonceUsed: self = .replayedNonce
    case .timestampRefused: self = .staleTimestamp(acceptable: error.acceptableTimestamps)
    case .parameterAbsent: self = .missingParameter(error.parameters.joined(separator: ", "))
    case .consumerKeyUnknown: self = .unknownConsumer(Self.consumerKey(in: error.advice))
    default: self = .refused(problem: error.problem, advice: error.advice, status: error.httpStatus)
    }
  }

  /// The key named in the verifier's advice (`no consumer has the key "k"`), or the advice itself.
  private static func consumerKey(in advice: String) -> String {
    guard let open = advice.firstIndex(of: "\""), let close = advice.lastIndex(of: "\""), open < close else { return advice }
    return String(advice[advice.index(after: open)..<close])
  }
}
