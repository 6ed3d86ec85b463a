/// A request that failed verification: which check, what was wrong, and what the sender can do.
///
/// Its ``response(realm:includingBaseString:)`` is the answer a provider sends back: the status,
/// a `WWW-Authenticate: OAuth realm="..."` header and an `oauth_problem=...` body; the base
/// string the verifier computed only when asked for. The signing key is never included.
///
/// Its text repeats parts of the request (a consumer key, a parameter's name) and ends up in
/// logs and terminals: every control character in ``advice``, ``parameters`` and ``cause`` (CR,
/// LF, ESC, the C1 controls, U+2028/U+2029 and the bidirectional overrides) is written as an
/// escape such as `\r` or `\u{1B}`, so a request cannot add a forged line to a log, and the
/// advice is cut at ``maximumAdviceLength`` characters.
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
  /// What went wrong, in a sentence, on one line: control characters escaped, at most ``maximumAdviceLength`` characters.
  public let advice: String
  /// `parameter_absent` / `parameter_rejected`: the parameters in question, control characters escaped.
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
  ///     Control characters are escaped and the text is cut at ``maximumAdviceLength`` characters.
  ///   - parameters: For `parameter_absent` and `parameter_rejected`, the parameter names in question; none by default.
  ///     Control characters are escaped and each name is cut at ``maximumEchoLength`` characters.
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
    self.advice = Self.escaped(advice, limit: Self.maximumAdviceLength)
    self.parameters = parameters.map { Self.escaped($0, limit: Self.maximumEchoLength) }
    self.acceptableTimestamps = acceptableTimestamps
    self.signatureBaseString = signatureBaseString
  }

  /// The longest ``advice``, in characters: a request's parts repeated in it (a URL, a header
  /// field) cannot make one error line the size of the request.
  public static let maximumAdviceLength = 1024
  /// The longest value of a request the verifier repeats in an error (a consumer key, a
  /// parameter's name), in characters, before it is cut with "…".
  public static let maximumEchoLength = 100

  public var description: String {
    var text = "\(problem.rawValue): \(advice)"
    if let cause { text += " (\(Self.escaped(cause, limit: Self.maximumAdviceLength)))" }
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

extension OAuthVerificationError {
  /// `text` on one line: every control character written as an escape (`\r`, `\n`, `\t`, or
  /// `\u{XX}`), cut at `limit` characters with "…". Text with nothing to escape or cut, the usual
  /// case, is returned as it is.
  static func escaped(_ text: String, limit: Int) -> String {
    var needsWork = false
    var characters = 0
    for scalar in text.unicodeScalars {
      characters += 1
      if characters > limit || isControl(scalar) {
        needsWork = true
        break
      }
    }
    guard needsWork else { return text }
    var result = ""
    var count = 0
    for character in text {
      guard count < limit else {
        result += "…"
        break
      }
      count += 1
      for scalar in character.unicodeScalars {
        switch scalar {
        case "\r": result += "\\r"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// `value` quoted for an advice, cut at ``maximumEchoLength`` characters (its control
  /// characters are escaped with the rest of the advice).
  static func quoted(_ value: String) -> String {
    guard value.unicodeScalars.count > maximumEchoLength else { return "\"" + value + "\"" }
    return "\"" + String(value.prefix(maximumEchoLength)) + "…\" (\(value.utf8.count) bytes)"
  }

  /// Whether a scalar changes how a line reads in a log or a terminal: a control character
  /// (C0, DEL, C1), a line or paragraph separator, or a bidirectional formatting character.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}
