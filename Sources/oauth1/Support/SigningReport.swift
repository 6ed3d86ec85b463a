import Foundation
import OAuth1

/// Renders a signed request's stages for people (numbered sections) or for programs (one
/// JSON object with a fixed set of keys).
struct SigningReport {
  let generator: OAuthSignatureGenerator
  let example: SigningExample?

  /// The JSON object: exactly `base_string_uri`, `parameters`, `normalized_parameters`,
  /// `signature_base_string`, `signing_key`, `signature`, `authorization_header`.
  struct JSONReport: Encodable {
    let base_string_uri: String
    let parameters: [[String]]
    let normalized_parameters: String
    let signature_base_string: String
    let signing_key: String?
    let signature: String
    let authorization_header: String

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(base_string_uri, forKey: .base_string_uri)
      try container.encode(parameters, forKey: .parameters)
      try container.encode(normalized_parameters, forKey: .normalized_parameters)
      try container.encode(signature_base_string, forKey: .signature_base_string)
      try container.encode(signing_key, forKey: .signing_key)  // null for RSA, not left out
      try container.encode(signature, forKey: .signature)
      try container.encode(authorization_header, forKey: .authorization_header)
    }

    enum CodingKeys: String, CodingKey {
      case base_string_uri, parameters, normalized_parameters, signature_base_string, signing_key, signature, authorization_header
    }
  }

  func json() -> String {
    let report = JSONReport(
      base_string_uri: generator.baseStringURI,
      parameters: generator.sortedParameters.map { [$0.name, $0.value] },
      normalized_parameters: generator.normalizedParameters,
      signature_base_string: generator.signatureBaseString,
      signing_key: generator.signingKey,
      signature: generator.signature,
      authorization_header: generator.authorizationHeader)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Encoding strings and arrays of strings cannot fail.
    let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The stages as text; `redacted` hides what is secret (the signing key, the signature and
  /// the header that carries it), as `oauth1 request -v` prints it.
  func text(redacted: Bool = false) -> String {
    let request = generator.request
    let method = generator.options.signatureMethod
    var lines: [String] = []
    if let example { lines += ["Example: \(example.title)", ""] }
    lines += ["Request: \(request.method.uppercased()) \(request.url)"]
    if let body = request.body {
      let kind = request.hasFormBody ? "form, signed parameter by parameter" : "not a form, not signed"
      lines += ["Body: \(body.count) bytes (\(kind))"]
    }
    lines.append("")

    let parameters = generator.sortedParameters
    let width = min(parameters.map(\.name.count).max() ?? 0, 32)
    section(
      &lines, 1, "Parameters (decoded, in signing order)",
      parameters.map { parameter in
        parameter.name.padding(toLength: max(width, parameter.name.count), withPad: " ", startingAt: 0) + "  " + parameter.value
      })
    section(&lines, 2, "Normalized parameters", [generator.normalizedParameters])
    section(&lines, 3, "Base string URI", [generator.baseStringURI])
    section(&lines, 4, "Signature base string", [generator.signatureBaseString])
    let hidden = "<redacted: secret>"
    section(&lines, 5, "Signing key", [redacted ? hidden : generator.signingKey ?? "(none: \(method.rawValue) signs with the RSA private key)"])
    let encoding = method == .plaintext ? "the signing key itself" : "base64"
    section(&lines, 6, "Signature (\(method.rawValue), \(encoding))", [redacted ? hidden : generator.signature])
    section(&lines, 7, "Authorization header", [redacted ? "OAuth ... oauth_signature=\"<redacted>\"" : generator.authorizationHeader])

    if let example {
      let verdict = generator.signature == example.publishedSignature ? "matches" : "DIFFERS"
      lines += ["Published signature: \(example.publishedSignature)", "Our signature:       \(generator.signature)  (\(verdict))"]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func section(_ lines: inout [String], _ number: Int, _ title: String, _ body: [String]) {
    lines.append("\(number). \(title)")
    lines += body.map { "   " + $0 }
    lines.append("")
  }
}
