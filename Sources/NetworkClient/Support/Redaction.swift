import Foundation

/// Removes secrets from anything that may be logged or shown: header values that carry
/// credentials, and `oauth_*` and token parameters in URLs and form-encoded text.
///
/// ```swift
/// Redaction.url("https://a.example/cb?oauth_token=abc&x=1")  // "https://a.example/cb?oauth_token=<redacted>&x=1"
/// ```
public enum Redaction {
  /// What replaces a secret value in logs and messages: `<redacted>`.
  public static let placeholder = "<redacted>"

  /// Headers whose whole value is a credential.
  public static let sensitiveHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
  ]

  /// Parameters whose value is never shown. Every `oauth_*` parameter is redacted except these
  /// harmless ones, which are what a person debugging a signature needs to see.
  public static let harmlessOAuthParameters: Set<String> = [
    "oauth_signature_method", "oauth_version", "oauth_timestamp", "oauth_nonce", "oauth_consumer_key",
    "oauth_callback_confirmed",
    // A provider's problem report (the OAuth Problem Reporting extension): it names what
    // went wrong and holds no secret, and a base string is what a person compares.
    "oauth_problem", "oauth_problem_advice", "oauth_signature_base_string", "oauth_parameters_absent",
    "oauth_parameters_rejected", "oauth_acceptable_timestamps", "oauth_acceptable_versions",
  ]

  /// Other parameter names whose values are secrets.
  public static let sensitiveParameters: Set<String> = [
    "access_token", "refresh_token", "client_secret", "password", "token", "secret", "api_key", "x_auth_password",
  ]

  /// Whether the whole value of the header `name` is a credential: one of ``sensitiveHeaders``, ignoring case.
  public static func isSensitive(header name: String) -> Bool {
    sensitiveHeaders.contains(name.lowercased())
  }

  /// Whether the value of the parameter `name` is a secret: any `oauth_*` parameter except ``harmlessOAuthParameters``,
  /// or one of ``sensitiveParameters``; case is ignored.
  public static func isSensitive(parameter name: String) -> Bool {
    let lowered = name.lowercased()
    if lowered.hasPrefix("oauth_") { return !harmlessOAuthParameters.contains(lowered) }
    return sensitiveParameters.contains(lowered)
  }

  /// The headers with sensitive values replaced.
  public static func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
    HTTPHeaders(headers.map { ($0.name, isSensitive(header: $0.name) ? placeholder : $0.value) })
  }

  /// A URL (as text) with sensitive query values replaced.
  public static func url(_ url: String) -> String {
    guard let questionMark = url.firstIndex(of: "?") else { return url }
    var query = url[url.index(after: questionMark)...]
    var fragment: Substring = ""
    if let hash = query.firstIndex(of: "#") {
      fragment = query[hash...]
      query = query[..<hash]
    }
    return url[...questionMark] + form(String(query)) + fragment
  }

  /// Form-encoded text (`a=1&oauth_token_secret=x`) with sensitive values replaced.
  public static func form(_ text: String) -> String {
    text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
      let name = PercentDecoded(pair[..<equals]).text
      return isSensitive(parameter: name) ? pair[...equals] + placeholder : String(pair)
    }.joined(separator: "&")
  }

  /// Free text (an error message, a body) with the values of `OAuth ...`, `Bearer ...` and
  /// `Basic ...` credentials and of sensitive `name=value` / `"name": "value"` pairs replaced.
  public static func text(_ text: String) -> String {
    let credentials = text.replacing(credentialPattern) { match in
      "\(match.output[1].substring ?? "") \(placeholder)"
    }
    return credentials.replacing(pairPattern) { match in
      let name = String(match.output[1].substring ?? "")
      let separator = String(match.output[2].substring ?? "")
      let value = String(match.output[3].substring ?? "")
      return name + separator + (isSensitive(parameter: name) && !value.isEmpty ? placeholder : value)
    }
  }

  // Built per use: `Regex` is not Sendable, and redaction is never on a hot path.
  // The patterns are constants, so `try!` cannot fail at run time.
  // "OAuth" only when followed by a parameter (so "OAuth request" stays); a bearer or basic
  // credential is one token68 (RFC 9110 11.2).
  private static var credentialPattern: Regex<AnyRegexOutput> {
    try! Regex(#"\b(OAuth(?= [A-Za-z_]+=")|Bearer|Basic) (?:[A-Za-z_]+="[^\r\n]*|[A-Za-z0-9\-._~+/]+=*)"#)
  }
  private static var pairPattern: Regex<AnyRegexOutput> { try! Regex(#"([A-Za-z0-9_]+)("?\s*[=:]\s*"?)([^&"\s,;}]*)"#) }

  /// The first 300 characters of a body, redacted; `nil` for an empty body.
  public static func excerpt(of body: Data, limit: Int = 300) -> String? {
    guard !body.isEmpty else { return nil }
    let text = String(decoding: body.prefix(limit * 4), as: UTF8.self)
    let short = text.count > limit ? String(text.prefix(limit)) + "…" : text
    return Self.text(short.replacingOccurrences(of: "\n", with: " "))
  }
}

/// Decodes a parameter name for comparison only.
private struct PercentDecoded {
  let text: String
  init(_ raw: Substring) {
    text = raw.removingPercentEncoding ?? String(raw)
  }
}
