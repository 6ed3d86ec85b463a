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
/// - Flickr's JSON answers carry it as `debug_sbs`:
///   `{"stat":"fail","code":96,"message":"Invalid signature","debug_sbs":"GET&https%3A..."}`.
///
/// The fields are read from a form body, a JSON body (at any depth) or the challenge. Failing
/// the known names, the base string is any value, or any run of a plain text body, shaped like
/// one: `METHOD&http...%3A%2F%2F...&parameters` that reads as a base string.
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
    // The values a base string may hide in, unnamed: a JSON body's strings, or a form's values.
    let values: [String]
    if let json = Self.jsonStrings(text) {
      for (name, value) in json {
        if let earlier = fields[name] {
          if Self.listFields.contains(name) { fields[name] = earlier + "&" + value }
        } else {
          fields[name] = value
        }
      }
      values = json.map(\.value)
    } else {
      let form = PercentEncoding.decodeForm(text)
      if text.contains("oauth_") || text.contains("debug_sbs") {
        for (name, value) in form where fields[name] == nil { fields[name] = value }
      }
      values = form.map(\.value)
    }
    if let wwwAuthenticate {
      for (name, value) in Self.challengeFields(wwwAuthenticate) where fields[name] == nil { fields[name] = value }
    }
    problem = fields["oauth_problem"]
    advice = fields["oauth_problem_advice"]
    signatureBaseString =
      fields["debug_sbs"] ?? fields["oauth_signature_base_string"] ?? fields["base_string"]
      ?? (values + [String(text)]).lazy.compactMap { Self.embeddedBaseString(in: $0) }.first
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

  /// The fields that may be given as a list (a JSON array, or repeated): their values are
  /// joined with `&`, as a form body writes them.
  private static let listFields: Set<String> = ["oauth_parameters_absent", "oauth_parameters_rejected"]

  /// Every string of a JSON body, at any depth, with the name of the member it is in (an
  /// array's strings take the array's name); `nil` when the body is not a JSON object or array.
  private static func jsonStrings(_ text: Substring) -> [(name: String, value: String)]? {
    guard text.first == "{" || text.first == "[", let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return nil }
    var strings: [(name: String, value: String)] = []
    func walk(_ value: Any, _ name: String) {
      if let object = value as? [String: Any] {
        // Members in name order: a JSON object's own order is not kept by the parser.
        for key in object.keys.sorted() { walk(object[key]!, key) }
      } else if let array = value as? [Any] {
        for item in array { walk(item, name) }
      } else if let string = value as? String {
        strings.append((name, string))
      }
    }
    walk(json, "")
    return strings
  }

  /// The first run of `text` shaped like a base string (`rawBaseString` from an
  /// upper-case method that starts a word) that reads as one (``OAuthBaseStringDiff``'s parts):
  /// a provider's base string under a name this reader does not know, or in a sentence.
  private static func embeddedBaseString(in text: String) -> String? {
    var search = text.startIndex
    while let found = text.range(of: "&http", options: .caseInsensitive, range: search..<text.endIndex) {
      search = found.upperBound
      var start = found.lowerBound
      while start > text.startIndex, case let before = text[text.index(before: start)], before.isASCII && before.isUppercase {
        start = text.index(before: start)
      }
      if start > text.startIndex && text[text.index(before: start)].isLetter { continue }
      guard start < found.lowerBound, let raw = rawBaseString(text[start...], endsAt: { !Self.isStrictlyEncoded($0) }),
        OAuthBaseStringDiff.Parts(String(raw)) != nil
      else { continue }
      return String(raw)
    }
    return nil
  }

  /// Whether a base string has `character` as it is: an unreserved character or an escape's.
  private static func isStrictlyEncoded(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || "-._~%".contains(character))
  }

  /// A base string written as it is: `METHOD&scheme%3A%2F%2F...&parameters`, whose two `&`s
  /// are its own; the URI and the parameters end at the next unencoded `&`, space or line break
  /// (or where `ends` says: in running text, at any character an encoded base string does not
  /// have). Escapes may be in either case (`%3a%2f%2f` from .NET servers).
  private static func rawBaseString(
    _ value: Substring, endsAt ends: (Character) -> Bool = { $0 == "&" || $0 == " " || $0.isNewline }
  ) -> Substring? {
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
