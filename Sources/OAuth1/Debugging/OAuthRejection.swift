/// A provider's refusal of a signed request, explained: the status, what the provider said
/// about OAuth (``OAuthProblemReport``), the base string this side signed and, when the
/// provider sent its own, the ``OAuthBaseStringDiff`` that names the first difference.
///
/// Build it from the answer and either the base string you signed (``OAuthSignedRequest``
/// has it) or the request as it was sent:
///
/// ```swift
/// if !(200..<300).contains(status) {
///   let rejection = OAuthRejection(
///     status: status, body: body, wwwAuthenticate: headers["WWW-Authenticate"],
///     signatureBaseString: signed.signatureBaseString)
///   print(rejection)  // the provider's problem, then both base strings and their first difference
/// }
/// ```
///
/// A base string holds no key, but it does hold every signed parameter: a form's password, an
/// xAuth `x_auth_password`. Print ``redacted(where:)`` where those must not appear.
public struct OAuthRejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The HTTP status of the refusal.
  public let status: Int
  /// The OAuth problem the provider reported, if it reported one.
  public let report: OAuthProblemReport?
  /// The base string this side signed, if known.
  public let signatureBaseString: String?
  /// Our base string compared with the provider's, when both are known.
  public let diff: OAuthBaseStringDiff?

  /// Explains a refusal given the base string that was signed.
  public init(status: Int, body: String, wwwAuthenticate: String? = nil, signatureBaseString: String?) {
    self.status = status
    report = OAuthProblemReport(body: body, wwwAuthenticate: wwwAuthenticate)
    self.signatureBaseString = signatureBaseString
    if let ours = signatureBaseString, let theirs = report?.signatureBaseString {
      diff = OAuthBaseStringDiff(ours: ours, provider: theirs)
    } else {
      diff = nil
    }
  }

  /// Explains a refusal of `request`, sent with `authorization` (or with its protocol
  /// parameters in the query or form body): its base string is rebuilt as a provider would.
  public init(status: Int, body: String, wwwAuthenticate: String? = nil, request: OAuthRequest, authorization: String?) {
    self.init(
      status: status, body: body, wwwAuthenticate: wwwAuthenticate,
      signatureBaseString: try? OAuthSignatureBaseString.make(received: request, authorization: authorization))
  }

  private init(status: Int, report: OAuthProblemReport?, signatureBaseString: String?, diff: OAuthBaseStringDiff?) {
    self.status = status
    self.report = report
    self.signatureBaseString = signatureBaseString
    self.diff = diff
  }

  /// The same explanation with the values of the parameters `isSensitive` names hidden (see
  /// ``OAuthBaseStringDiff/redacted(where:)``): what `oauth1 request` prints.
  public func redacted(where isSensitive: (String) -> Bool) -> OAuthRejection {
    let diff = diff?.redacted(where: isSensitive)
    let ours = signatureBaseString.map { OAuthBaseStringDiff(ours: $0, provider: $0).redacted(where: isSensitive).ours }
    return OAuthRejection(status: status, report: report, signatureBaseString: ours, diff: diff)
  }

  /// The provider's problem and advice, then the diff (or our base string alone, to compare
  /// with the provider's documentation when it sent none).
  public var description: String {
    var lines = ["The provider refused the request (HTTP \(status))" + (report?.problem.map { ": \($0)" } ?? ".")]
    if let advice = report?.advice { lines.append("Its advice: \(advice)") }
    if let parameters = report?.parameters, !parameters.isEmpty { lines.append("Parameters named: \(parameters.joined(separator: ", "))") }
    if let timestamps = report?.acceptableTimestamps { lines.append("Accepted timestamps: \(timestamps)") }
    if let diff {
      lines.append(diff.description)
    } else if let signatureBaseString {
      lines.append("It sent no base string of its own. Ours, to compare with its documentation:\n  \(signatureBaseString)")
    }
    return lines.joined(separator: "\n")
  }
}
