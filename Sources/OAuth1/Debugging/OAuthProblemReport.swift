import Foundation
import PercentEncoding

/// What a provider's refusal says about OAuth, read from its body and `WWW-Authenticate`
/// header: the `oauth_problem` of the OAuth Problem Reporting extension and the base string
/// the provider computed, where it sends one.
///
/// Providers that report their base string:
/// - Atlassian Jira and Confluence Data Center answer a form body with `oauth_problem` and
///   `oauth_signature_base_string` (percent-encoded).
/// - Flickr appends `debug_sbs=` and the base string as it is, with its `&` unencoded.
/// - Google's OAuth 1.0 endpoints answered `signature_invalid` and a line `base_string:...`
///   (scribejava/scribejava#45).
/// - This package's ``OAuthVerifier`` reports its base string in
///   ``OAuthVerificationError/response(realm:includingBaseString:)``, as `oauth_signature_base_string`.
///
/// ```swift
/// let report = OAuthProblemReport(body: "oauth_problem=signature_invalid&debug_sbs=GET&https%3A...&...")
/// report?.problem             // "signature_invalid"
/// report?.signatureBaseString // "GET&https%3A...&..."
/// ```
public struct OAuthProblemReport: Sendable, Hashable {
  /// `oauth_problem`: `signature_invalid`, `timestamp_refused`, `nonce_used`, and so on.
  public var problem: String?
  /// `oauth_problem_advice`: the provider's explanation, if any.
  public var advice: String?
  /// The provider's signature base string (`oauth_signature_base_string` or `debug_sbs`).
  public var signatureBaseString: String?
  /// `oauth_parameters_absent` and `oauth_parameters_rejected`: the parameters named.
  public var parameters: [String] = []
  /// `oauth_acceptable_timestamps` as sent (`"1318467427-1318467727"`).
  public var acceptableTimestamps: String?

  /// Reads a refusal's body (and its `WWW-Authenticate` header, where some providers put
  /// `oauth_problem`); `nil` when neither says anything about OAuth.
  public init?(body: String, wwwAuthenticate: String? = nil) {
    var fields: [String: String] = [:]
    var text = Substring(body.trimmingCharacters(in: .whitespacesAndNewlines))
    // A base string sent unencoded ends the body: take it before its `&`s split the form.
    for marker in ["debug_sbs=", "oauth_signature_base_string=", "base_string:"] {
      guard let start = Self.field(marker, in: text) else { continue }
      let value = text[start...]
      if let raw = Self.rawBaseString(value) {
        fields[String(marker.dropLast())] = String(raw)
        text = text[..<text.index(start, offsetBy: -marker.count)]
        text = text.hasSuffix("&") ? text.dropLast() : text
        text += value.dropFirst(raw.count)
      }
    }
    // A bare problem name on the first line (`signature_invalid`, then `base_string:...`), as
    // Google's OAuth 1.0 endpoints answered.
    if fields["base_string"] != nil, let first = text.split(whereSeparator: \.isNewline).first, !first.contains("=") {
      fields["oauth_problem"] = String(first).trimmingCharacters(in: .whitespaces)
    }
    if text.contains("oauth_") || text.contains("debug_sbs") {
      for (name, value) in PercentEncoding.decodeForm(text) where fields[name] == nil { fields[name] = value }
    }
    if let wwwAuthenticate {
      for (name, value) in Self.challengeFields(wwwAuthenticate) where fields[name] == nil { fields[name] = value }
    }
    problem = fields["oauth_problem"]
    advice = fields["oauth_problem_advice"]
    signatureBaseString = fields["debug_sbs"] ?? fields["oauth_signature_base_string"] ?? fields["base_string"]
    parameters = [fields["oauth_parameters_absent"], fields["oauth_parameters_rejected"]].compactMap { $0 }
      .flatMap { $0.split(separator: "&").map(String.init) }
    acceptableTimestamps = fields["oauth_acceptable_timestamps"]
    if problem == nil && signatureBaseString == nil && advice == nil { return nil }
  }

  /// Where the value after `marker` (`debug_sbs=`) starts, at the body's start or after an `&`,
  /// a space or a line break (some providers put the debug field on its own line).
  private static func field(_ marker: String, in text: Substring) -> Substring.Index? {
    var search = text.startIndex
    while let found = text.range(of: marker, range: search..<text.endIndex) {
      if found.lowerBound == text.startIndex { return found.upperBound }
      let before = text[text.index(before: found.lowerBound)]
      if before == "&" || before == " " || before.isNewline { return found.upperBound }
      search = found.upperBound
    }
    return nil
  }

  /// A base string written as it is: `METHOD&scheme%3A%2F%2F...&parameters`, whose two `&`s
  /// are its own; the parameters end at the next unencoded `&`, space or line break. Escapes
  /// may be in either case (`%3a%2f%2f` from .NET servers).
  private static func rawBaseString(_ value: Substring) -> Substring? {
    func ends(_ character: Character) -> Bool { character == "&" || character == " " || character.isNewline }
    let method = value.prefix { $0.isLetter }
    guard !method.isEmpty, value.dropFirst(method.count).lowercased().hasPrefix("&http") else { return nil }
    let uri = value.dropFirst(method.count + 1).prefix { !ends($0) }
    guard uri.lowercased().contains("%3a%2f%2f"), value.dropFirst(method.count + 1 + uri.count).hasPrefix("&") else { return nil }
    let parameters = value.dropFirst(method.count + uri.count + 2).prefix { !ends($0) }
    return value.prefix(method.count + uri.count + 2 + parameters.count)
  }

  /// The fields of an `OAuth ...` challenge: quoted, as RFC 5849 writes them (the Authorization
  /// header's own parser), or unquoted, as Yahoo's were.
  private static func challengeFields(_ header: String) -> [(String, String)] {
    if let parsed = try? OAuthAuthorizationHeader.parse(header) {
      return (parsed.realm.map { [("realm", $0)] } ?? []) + parsed.parameters.map { ($0.name, $0.value) }
    }
    return header.drop { $0 != " " }.split(separator: ",").compactMap { item in
      let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2 else { return nil }
      let quoted = pair[1].count >= 2 && pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"")
      let value = quoted ? String(pair[1].dropFirst().dropLast()) : pair[1]
      return (pair[0], PercentEncoding.decode(value) ?? value)
    }
  }
}
