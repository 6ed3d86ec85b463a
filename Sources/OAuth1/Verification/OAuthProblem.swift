/// Why a request failed verification, named as in the OAuth Problem Reporting extension
/// (`oauth_problem`), so that the failure response speaks the words clients know.
public enum OAuthProblem: String, Sendable, Hashable, CaseIterable {
  /// A required protocol parameter is missing.
  case parameterAbsent = "parameter_absent"
  /// A protocol parameter is duplicated, malformed, or not allowed where it appeared.
  case parameterRejected = "parameter_rejected"
  /// `oauth_version` is not 1.0.
  case versionRejected = "version_rejected"
  /// The signature method is unknown or not allowed (PLAINTEXT over plain HTTP, say).
  case signatureMethodRejected = "signature_method_rejected"
  /// `oauth_timestamp` is outside the accepted window.
  case timestampRefused = "timestamp_refused"
  /// The consumer key is not known.
  case consumerKeyUnknown = "consumer_key_unknown"
  /// The token is unknown, expired or revoked.
  case tokenRejected = "token_rejected"
  /// The signature does not match the request.
  case signatureInvalid = "signature_invalid"
  /// The nonce was already used with this timestamp and credentials: a replay.
  case nonceUsed = "nonce_used"
  /// The verifier could not check the request now: its nonce store did not answer. Not the
  /// sender's fault; send the request again later (with a fresh nonce and timestamp).
  case temporarilyUnavailable = "temporarily_unavailable"

  /// The HTTP status RFC 5849 section 3.2 gives the problem: 400 for a malformed request,
  /// 401 for credentials that do not check out; 503 when the verifier's own store failed.
  public var httpStatus: Int {
    switch self {
    case .parameterAbsent, .parameterRejected, .versionRejected, .signatureMethodRejected: return 400
    case .timestampRefused, .consumerKeyUnknown, .tokenRejected, .signatureInvalid, .nonceUsed: return 401
    case .temporarilyUnavailable: return 503
    }
  }
}
