import Foundation
import PercentEncoding

/// Why an OAuth 2.0 step failed: the token endpoint's `error` codes (RFC 6749 section 5.2, and
/// X's additions), a refused or forged redirect, or a configuration that cannot work. Each says
/// what to do, and none carries a token, a secret, a code or a verifier.
///
/// ```swift
/// do { _ = try await endpoint.refresh(token) } catch .invalidGrant(let description) { print("log in again:", description) }
/// ```
public enum OAuth2Error: Error, Sendable, Equatable, CustomStringConvertible {
  /// `invalid_request`: a parameter is missing, repeated or malformed. X is reported to answer
  /// a spent refresh token with it too.
  case invalidRequest(String)
  /// `invalid_client`: the client id or secret is wrong, or a confidential client sent none.
  case invalidClient(String)
  /// `invalid_grant`: the code, refresh token or 1.0a token is invalid, expired, revoked or
  /// already used. Final: retrying cannot help.
  case invalidGrant(String)
  /// `unauthorized_client`: this client may not use this grant.
  case unauthorizedClient(String)
  /// `unsupported_grant_type`.
  case unsupportedGrantType(String)
  /// `invalid_scope`: a scope is unknown, or more than the user granted.
  case invalidScope(String)
  /// `access_denied` on the redirect: the user declined.
  case accessDenied(String)
  /// HTTP 429 (`rate_limited` at X): wait, then try again.
  case rateLimited(retryAfter: TimeInterval?)
  /// HTTP 503 (`temporarily_unavailable`): try again later.
  case temporarilyUnavailable(String)
  /// Another `error` code, with its status.
  case other(code: String, status: Int, description: String)
  /// The redirect's `state` is not the one sent: another site's redirect, or an old one. The
  /// code it carried must not be used.
  case stateMismatch
  /// The redirect carried no `code` (nor an `error`).
  case missingCode(String)
  /// The endpoint answered something that is not a token response.
  case unexpectedResponse(status: Int, excerpt: String)
  /// The endpoint answered with a redirect, which is not followed: the request's body (a code
  /// and its verifier, a refresh token, a token to revoke) goes only to the endpoint configured.
  /// `location` is the origin it pointed to (`https://b.example:443`), never its path or query.
  /// Final: the same request gets the same answer; if the provider moved the endpoint,
  /// configure the new URL.
  case redirected(status: Int, location: String)
  /// The request could not be sent or answered (a network failure).
  case transport(String)
  /// A configuration that cannot work (a malformed verifier or URL).
  case invalidConfiguration(String)
  /// The system's cryptography (OpenSSL's libcrypto) failed at `operation` (`digest` for the
  /// PKCE challenge), with its own `reason`. Nothing was sent: a challenge computed from a
  /// failed digest would match no verifier.
  case cryptoFailure(operation: String, reason: String)

  /// Whether trying the same request again could succeed: never for a 400 or 401 answer (a
  /// spent refresh token must not be presented twice), yes for 429, 503 and network failures.
  public var isFinal: Bool {
    switch self {
    case .rateLimited, .temporarilyUnavailable, .transport: return false
    case .other(_, let status, _): return status < 500
    default: return true
    }
  }

  /// The `error` code as the endpoint sent it, or the kind of failure.
  public var code: String {
    switch self {
    case .invalidRequest: "invalid_request"
    case .invalidClient: "invalid_client"
    case .invalidGrant: "invalid_grant"
    case .unauthorizedClient: "unauthorized_client"
    case .unsupportedGrantType: "unsupported_grant_type"
    case .invalidScope: "invalid_scope"
    case .accessDenied: "access_denied"
    case .rateLimited: "rate_limited"
    case .temporarilyUnavailable: "temporarily_unavailable"
    case .other(let code, _, _): code
    case .stateMismatch: "state_mismatch"
    case .missingCode: "missing_code"
    case .unexpectedResponse: "unexpected_response"
    case .redirected: "redirected"
    case .transport: "transport"
    case .invalidConfiguration: "invalid_configuration"
    case .cryptoFailure: "crypto_failure"
    }
  }

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .invalidRequest(let text): "the token endpoint refused the request (invalid_request): \(text)"
    case .invalidClient(let text): "the client id or secret was refused (invalid_client): \(text). Check them in the app's settings."
    case .invalidGrant(let text): "the grant was refused (invalid_grant): \(text). It was revoked, expired or already used: log in again."
    case .unauthorizedClient(let text): "this client may not use this grant (unauthorized_client): \(text)"
    case .unsupportedGrantType(let text): "the endpoint does not support this grant (unsupported_grant_type): \(text)"
    case .invalidScope(let text): "a scope was refused (invalid_scope): \(text). Ask only for scopes the app has."
    case .accessDenied(let text): "the authorization was declined (access_denied): \(text)"
    case .rateLimited(let retryAfter):
      "the token endpoint is rate limited (HTTP 429)" + (retryAfter.map { "; try again in \(Int($0.rounded(.up))) s" } ?? "; try again later")
    case .temporarilyUnavailable(let text): "the token endpoint is unavailable (HTTP 503): \(text). Try again later."
    case .other(let code, let status, let text): "the token endpoint answered HTTP \(status), \(code): \(text)"
    case .stateMismatch:
      "the redirect's state is not the one this login sent: it is another site's, or an old one. Nothing was exchanged; start the login again."
    case .missingCode(let text): "the redirect carried no authorization code: \(text)"
    case .unexpectedResponse(let status, let excerpt): "the token endpoint answered HTTP \(status) with something that is not a token: \(excerpt)"
    case .redirected(let status, let location):
      "the endpoint answered with a redirect (HTTP \(status)) to \(location) (its path and query not shown), which was not followed: the request carries a code, a token or a secret that goes only to the endpoint configured. If the provider moved it, configure its new URL."
    case .transport(let text): "the token endpoint could not be reached: \(text)"
    case .invalidConfiguration(let text): text
    case .cryptoFailure(let operation, let reason):
      "the system's cryptography failed (\(operation)): \(reason). Nothing was sent; check the OpenSSL installation."
    }
  }

  /// The error an endpoint's error answer stands for (RFC 6749 section 5.2's `error` and
  /// `error_description`, JSON or form).
  static func fromResponse(status: Int, body: Data, retryAfter: TimeInterval?) -> OAuth2Error {
    let fields = Self.fields(body)
    let text = fields["error_description"] ?? fields["detail"] ?? fields["title"] ?? (fields["error"] ?? "no description")
    if status == 429 { return .rateLimited(retryAfter: retryAfter) }
    switch fields["error"] {
    case "invalid_request": return .invalidRequest(text)
    case "invalid_client": return .invalidClient(text)
    case "invalid_grant": return .invalidGrant(text)
    case "unauthorized_client": return .unauthorizedClient(text)
    case "unsupported_grant_type": return .unsupportedGrantType(text)
    case "invalid_scope": return .invalidScope(text)
    case "access_denied": return .accessDenied(text)
    case "rate_limited": return .rateLimited(retryAfter: retryAfter)
    case "temporarily_unavailable": return .temporarilyUnavailable(text)
    case let code?: return .other(code: code, status: status, description: text)
    case nil:
      if status == 503 { return .temporarilyUnavailable(text) }
      let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
      return .unexpectedResponse(status: status, excerpt: excerpt)
    }
  }

  /// The string fields of a JSON object body, or of a form body.
  static func fields(_ body: Data) -> [String: String] {
    if let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] {
      return object.compactMapValues { $0 as? String }
    }
    var fields: [String: String] = [:]
    for pair in PercentEncoding.decodeForm(String(decoding: body, as: UTF8.self)) where fields[pair.name] == nil {
      fields[pair.name] = pair.value
    }
    return fields
  }
}
