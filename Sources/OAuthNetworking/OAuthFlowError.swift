import Foundation
import NetworkClient
import OAuth1
import PercentEncoding

/// Why a step of the three-legged flow failed, in words a user can act on.
public enum OAuthFlowError: Error, Sendable, CustomStringConvertible {
  /// The provider refused the step; `message` is its own text, whatever the format (plain text,
  /// XML or JSON), secrets redacted; `explanation` holds the `oauth_problem` it reported and,
  /// when it sent its own base string, the difference from the one signed.
  case rejected(step: String, status: Int, message: String, explanation: OAuthRejection)
  /// The provider did not confirm the callback (an OAuth 1.0 server, or a proxy in the way).
  case callbackNotConfirmed
  /// The response had none of the expected fields.
  case malformedResponse(step: String, reason: String)
  /// No answer (or a transport-level failure), or a redirect, which the flow does not follow
  /// (`.redirect` with `RedirectFailure.Reason.refused`, naming the status and the origin only).
  case network(NetworkError)

  public var description: String {
    switch self {
    case .rejected(let step, let status, let message, let explanation):
      if let diff = explanation.diff {
        return "The provider refused the \(step) step (HTTP \(status)): \(message).\n\(diff)"
      }
      var hint = ""
      if message.localizedCaseInsensitiveContains("verifier") {
        hint = " Check the PIN: it is valid once, for a few minutes, for the request token it was shown for."
      } else if status == 401 {
        hint = " Check the consumer key and secret, and that the computer's clock is right."
      }
      return "The provider refused the \(step) step (HTTP \(status)): \(message).\(hint)"
    case .callbackNotConfirmed:
      return
        "The provider did not confirm the callback (oauth_callback_confirmed is not true), so it is not an OAuth 1.0a server or something altered the response."
    case .malformedResponse(let step, let reason):
      return "The \(step) response cannot be used: \(reason)."
    case .network(let error):
      return error.description
    }
  }
}

/// The form-encoded bodies of the OAuth endpoints, and their error bodies in any format.
enum FormResponse {
  static func fields(_ body: Data) -> [String: String] {
    var fields: [String: String] = [:]
    let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    for (name, value) in PercentEncoding.decodeForm(text) { fields[name] = value }
    return fields
  }

  /// A readable message from a plain-text, XML (`<error>...</error>`) or JSON
  /// (`{"errors":[{"message":...}]}`) error body.
  static func message(_ body: Data) -> String {
    let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    if let json = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
      if let errors = json["errors"] as? [[String: Any]], !errors.isEmpty {
        return errors.map { error in
          let message = error["message"] as? String ?? "unknown error"
          return (error["code"] as? Int).map { "\(message) (code \($0))" } ?? message
        }.joined(separator: "; ")
      }
      if let detail = json["detail"] as? String ?? json["error"] as? String { return detail }
    }
    if let start = text.range(of: "<error>"), let end = text.range(of: "</error>", range: start.upperBound..<text.endIndex) {
      return String(text[start.upperBound..<end.lowerBound])
    }
    if text.isEmpty { return "no explanation given" }
    return Redaction.text(String(text.prefix(300)))
  }

}
