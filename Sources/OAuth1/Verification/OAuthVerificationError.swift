/// A request that failed verification: which check, what was wrong, and what the sender can do.
///
/// Its ``response(realm:includingBaseString:)`` is the answer a provider sends back: the status,
/// a `WWW-Authenticate: OAuth realm="..."` header and an `oauth_problem=...` body; the base
/// string the verifier computed only when asked for. The signing key is never included.
///
/// ```swift
/// do {
///   let verified = try await verifier.verify(request, authorization: header)
/// } catch {
///   let answer = error.response(realm: "api.example.com")
///   // send answer.status, answer.headers and answer.body
/// }
/// ```
public struct OAuthVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Which check failed, sent as `oauth_problem`.
  public let problem: OAuthProblem
  /// The status of ``response(realm:includingBaseString:)``: the problem's own (400, 401, or 503 when the nonce store failed),
  /// or for a request over one of the verifier's ``OAuthVerifier/Limits`` the status an HTTP server gives it: 413 for the body,
  /// 414 for the URL, 431 for the header.
  public var httpStatus: Int
  /// What went wrong, in a sentence.
  public let advice: String
  /// `parameter_absent` / `parameter_rejected`: the parameters in question.
  public var parameters: [String] = []
  /// `timestamp_refused`: the accepted range, in seconds since 1970.
  public var acceptableTimestamps: ClosedRange<Int64>?
  /// `signature_invalid`: the signature base string the verifier computed.
  public var signatureBaseString: String?
  /// `temporarily_unavailable`: what the verifier's store reported (a connection refused, a
  /// timeout), for the provider's logs; shown by `description`, never sent in the response, since
  /// it describes the provider's own infrastructure.
  public var cause: String?

  /// Creates a failure; the verifier makes these, and a provider can make its own to answer a check of its own the same way.
  /// - Parameters:
  ///   - problem: Which check failed.
  ///   - advice: What went wrong, in a sentence for the sender, sent as `oauth_problem_advice`; it must not hold a secret.
  ///   - parameters: For `parameter_absent` and `parameter_rejected`, the parameter names in question; none by default.
  ///   - acceptableTimestamps: For `timestamp_refused`, the accepted range in seconds since 1970; `nil` by default.
  ///   - signatureBaseString: For `signature_invalid`, the base string the verifier computed, shown by `description` and not in
  ///     the response; `nil` by default.
  ///   - httpStatus: The response's status; `problem.httpStatus` by default.
  public init(
    _ problem: OAuthProblem, advice: String, parameters: [String] = [], acceptableTimestamps: ClosedRange<Int64>? = nil,
    signatureBaseString: String? = nil, httpStatus: Int? = nil
  ) {
    self.problem = problem
    self.httpStatus = httpStatus ?? problem.httpStatus
    self.advice = advice
    self.parameters = parameters
    self.acceptableTimestamps = acceptableTimestamps
    self.signatureBaseString = signatureBaseString
  }

  public var description: String {
    var text = "\(problem.rawValue): \(advice)"
    if let cause { text += " (\(cause))" }
    if let signatureBaseString { text += "\nsignature base string computed by the verifier:\n\(signatureBaseString)" }
    return text
  }

  /// The failure response (RFC 5849 section 3.2 and the Problem Reporting extension).
  ///
  /// With `includingBaseString`, a `signature_invalid` answer carries the base string the
  /// verifier computed as `oauth_signature_base_string`, as Atlassian's servers do, so that the
  /// sender's `OAuthBaseStringDiff` can name the difference. It holds the request's parameters
  /// (form fields included) and the URL the server saw (behind a proxy, the internal one), so
  /// it is off by default: turn it on in development, or for senders you trust.
  public func response(realm: String? = nil, includingBaseString: Bool = false) -> (status: Int, headers: [(String, String)], body: String) {
    var fields = [OAuthParameter("oauth_problem", problem.rawValue), OAuthParameter("oauth_problem_advice", advice)]
    switch problem {
    case .parameterAbsent:
      fields.append(OAuthParameter("oauth_parameters_absent", parameters.joined(separator: "&")))
    case .parameterRejected:
      fields.append(OAuthParameter("oauth_parameters_rejected", parameters.joined(separator: "&")))
    case .timestampRefused:
      if let range = acceptableTimestamps {
        fields.append(OAuthParameter("oauth_acceptable_timestamps", "\(range.lowerBound)-\(range.upperBound)"))
      }
    case .versionRejected:
      fields.append(OAuthParameter("oauth_acceptable_versions", "1.0-1.0"))
    case .signatureInvalid where includingBaseString:
      if let signatureBaseString { fields.append(OAuthParameter("oauth_signature_base_string", signatureBaseString)) }
    default:
      break
    }
    let challenge = "OAuth realm=\"" + OAuthAuthorizationHeader.quote(realm ?? "") + "\""
    return (
      httpStatus, [("WWW-Authenticate", challenge), ("Content-Type", "application/x-www-form-urlencoded")],
      OAuthFormEncoding.encode(fields)
    )
  }
}
