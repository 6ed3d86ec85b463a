/// A request that failed verification: which check, what was wrong, and what the sender can do.
///
/// Its ``response(realm:)`` is the answer a provider sends back: the status, a
/// `WWW-Authenticate: OAuth realm="..."` header and an `oauth_problem=...` body. Nothing in it
/// is secret: the base string we computed is included for `signature_invalid` so that the sender
/// can compare it with theirs; the signing key is never included.
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
  /// Which check failed, sent as `oauth_problem`; its `httpStatus` (400 or 401) is the status of ``response(realm:)``.
  public let problem: OAuthProblem
  /// What went wrong, in a sentence.
  public let advice: String
  /// `parameter_absent` / `parameter_rejected`: the parameters in question.
  public var parameters: [String] = []
  /// `timestamp_refused`: the accepted range, in seconds since 1970.
  public var acceptableTimestamps: ClosedRange<Int64>?
  /// `signature_invalid`: the signature base string the verifier computed.
  public var signatureBaseString: String?

  /// Creates a failure; the verifier makes these, and a provider can make its own to answer a check of its own the same way.
  /// - Parameters:
  ///   - problem: Which check failed.
  ///   - advice: What went wrong, in a sentence for the sender, sent as `oauth_problem_advice`; it must not hold a secret.
  ///   - parameters: For `parameter_absent` and `parameter_rejected`, the parameter names in question; none by default.
  ///   - acceptableTimestamps: For `timestamp_refused`, the accepted range in seconds since 1970; `nil` by default.
  ///   - signatureBaseString: For `signature_invalid`, the base string the verifier computed, shown by `description` and not in
  ///     the response; `nil` by default.
  public init(
    _ problem: OAuthProblem, advice: String, parameters: [String] = [], acceptableTimestamps: ClosedRange<Int64>? = nil,
    signatureBaseString: String? = nil
  ) {
    self.problem = problem
    self.advice = advice
    self.parameters = parameters
    self.acceptableTimestamps = acceptableTimestamps
    self.signatureBaseString = signatureBaseString
  }

  public var description: String {
    var text = "\(problem.rawValue): \(advice)"
    if let signatureBaseString { text += "\nsignature base string computed by the verifier:\n\(signatureBaseString)" }
    return text
  }

  /// The failure response (RFC 5849 section 3.2 and the Problem Reporting extension).
  public func response(realm: String? = nil) -> (status: Int, headers: [(String, String)], body: String) {
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
    case .signatureInvalid:
      // As Atlassian's servers do: the sender can compare it with its own (OAuthProblemReport reads it).
      if let signatureBaseString { fields.append(OAuthParameter("oauth_signature_base_string", signatureBaseString)) }
    default:
      break
    }
    let challenge = "OAuth realm=\"" + OAuthAuthorizationHeader.quote(realm ?? "") + "\""
    return (
      problem.httpStatus, [("WWW-Authenticate", challenge), ("Content-Type", "application/x-www-form-urlencoded")],
      OAuthFormEncoding.encode(fields)
    )
  }
}
