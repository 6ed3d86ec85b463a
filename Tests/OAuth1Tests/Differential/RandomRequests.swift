import Foundation
import OAuth1

/// SplitMix64: a tiny seeded generator, so every run draws the same requests and a failure
/// names a case that can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// One random request, with everything both implementations need to sign it.
struct DifferentialCase: Encodable {
  let id: String
  let method: String
  let url: String
  let host: String?
  let body: String?
  let content_type: String?
  var oauth_params: [[String]]
  let consumer_secret: String
  let token_secret: String?
  let signature_method: String
  let rsa_private_key_pem: String?
  /// Whether oauthlib's Client can sign the same request (see the exclusions).
  let client: Bool

  // Kept for our side, not sent.
  let consumerKey: String
  let token: String?
  let nonce: String
  let timestamp: Int64
  let callback: String?
  let verifier: String?
  let includeVersion: Bool
  let bodyHash: Bool

  enum CodingKeys: String, CodingKey {
    case id, method, url, host, body, content_type, oauth_params, consumer_secret, token_secret, signature_method
    case rsa_private_key_pem, client
  }
}

/// Draws requests that stress every stage: unicode (4-byte characters included), reserved
/// characters, `+ * ~ %`, empty values, duplicate and case-differing names, query plus form
/// body, JSON and text bodies, explicit default and other ports, upper-case scheme and host,
/// encoded paths, and every signature method.
struct RandomRequests {
  var random: SeededGenerator
  let rsaKeys: [String]

  /// Characters values are drawn from, weighted towards the troublesome ones.
  static let alphabet: [String] =
    Array("abcXYZ019-._~").map(String.init)
    + ["+", "*", "%", " ", "!", "'", "(", ")", "[", "]", ":", "/", "?", "#", "@", "$", "&", "=", ",", ";", "\"", "<", "\\"]
    + ["é", "ß", "中", "文", "😀", "🚀", "\u{1F3F3}\u{FE0F}", "\u{0301}", "\t"]

  mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
  mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

  mutating func text(maxLength: Int = 8, allowEmpty: Bool = true) -> String {
    let length = Int.random(in: (allowEmpty ? 0 : 1)...maxLength, using: &random)
    return (0..<length).map { _ in pick(Self.alphabet) }.joined()
  }

  /// Encodes a decoded value the ways real clients do: RFC 3986 strict, `+` for a space,
  /// lowercase hex, and the characters oauthlib accepts raw left unencoded.
  mutating func encodeForQuery(_ value: String) -> String {
    var encoded = ""
    for character in value {
      let string = String(character)
      if character == " " && chance(0.5) {
        encoded += "+"
      } else if "*:@!()'$,~/?".contains(character) && chance(0.5) {
        encoded += string
      } else {
        let strict = OAuthPercentEncoding.encode(string)
        encoded += chance(0.3) ? strict.lowercased().replacingOccurrences(of: "%", with: "%") : strict
      }
    }
    return encoded
  }

  mutating func pairs(count: ClosedRange<Int>) -> [(String, String)] {
    var result: [(String, String)] = []
    for _ in 0..<Int.random(in: count, using: &random) {
      var name = text(maxLength: 6, allowEmpty: false)
      // oauthlib decodes oauth_* names a second time in a query or body: never drawn.
      if name.lowercased().hasPrefix("oauth_") { name = "x" + name }
      if let previous = result.last, chance(0.2) {
        name = chance(0.5) ? previous.0 : previous.0.uppercased()  // duplicate or case-differing
      }
      result.append((name, chance(0.15) ? "" : text()))
    }
    return result
  }

  mutating func path() -> String {
    var path = ""
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      let segment = OAuthPercentEncoding.encode(text(maxLength: 5, allowEmpty: false))
      path += "/" + (chance(0.2) ? segment.lowercased() : segment)
    }
    return path.isEmpty && chance(0.5) ? "" : (path.isEmpty ? "/" : path)
  }

  mutating func next(index: Int) -> DifferentialCase {
    let method = OAuthSignatureMethod.allCases[index % OAuthSignatureMethod.allCases.count]
    let secure = chance(0.5)
    var scheme = secure ? "https" : "http"
    if chance(0.2) { scheme = scheme.uppercased() }
    var host = pick([
      "api.example.com", "API.Example.COM", "127.0.0.1", "sub.domain.test", "xn--bcher-kva.example", "[::1]", "[2001:DB8:0000:0::0001]",
    ])
    if chance(0.3) { host = host.uppercased() }
    let port: String = pick(["", "", secure ? ":443" : ":80", ":8080", secure ? ":80" : ":443", ":1"])
    let query = pairs(count: 0...4).map { encodeForQuery($0.0) + "=" + encodeForQuery($0.1) }.joined(separator: "&")
    let url = scheme + "://" + host + port + path() + (query.isEmpty && chance(0.7) ? "" : "?" + query)

    let httpMethod = pick(["GET", "POST", "PUT", "DELETE", "PATCH", "post"])
    var body: String? = nil
    var contentType: String? = nil
    var client = true
    if httpMethod.uppercased() != "GET" {
      switch Int.random(in: 0..<5, using: &random) {
      case 0, 1:
        body = pairs(count: 0...4).map { encodeForQuery($0.0) + "=" + encodeForQuery($0.1) }.joined(separator: "&")
        contentType = "application/x-www-form-urlencoded"
        if chance(0.2) {
          // A media-type parameter: RFC-wise still a form, but oauthlib's Client compares
          // the whole header, so its own signing is not comparable.
          contentType = "application/x-www-form-urlencoded; charset=utf-8"
          client = false
        }
      case 2:
        body = "{\"text\":\"\(text().replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: ""))\"}"
        contentType = "application/json"
      case 3:
        body = text(maxLength: 20)
        contentType = "text/plain; charset=utf-8"
      default:
        break
      }
    }

    let includeVersion = !chance(0.1)
    if !includeVersion { client = false }  // oauthlib's Client always sends oauth_version
    let token: String? = chance(0.8) ? text(maxLength: 12, allowEmpty: false) : nil
    let tokenSecret: String? = token == nil ? nil : text(maxLength: 12)
    let consumerKey = text(maxLength: 12, allowEmpty: false)
    let nonce = String((0..<16).map { _ in pick(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")) })
    let timestamp = Int64.random(in: 1_000_000_000...2_000_000_000, using: &random)
    let callback: String? = chance(0.1) ? pick(["oob", "https://client.example.net/cb?x=1&y=é"]) : nil
    let verifier: String? = chance(0.1) ? text(maxLength: 8, allowEmpty: false) : nil
    // oauthlib's Client adds oauth_body_hash (SHA-1) to a non-form body that has a
    // Content-Type; our signer does when asked, so ask for it on exactly those requests.
    let bodyHash = body != nil && contentType != nil && !(contentType ?? "").hasPrefix("application/x-www-form-urlencoded")

    return DifferentialCase(
      id: "case-\(index)", method: httpMethod, url: url, host: nil, body: body, content_type: contentType,
      oauth_params: [], consumer_secret: text(maxLength: 16), token_secret: tokenSecret,
      signature_method: method.rawValue, rsa_private_key_pem: method.usesRSA ? pick(rsaKeys) : nil, client: client,
      consumerKey: consumerKey, token: token, nonce: nonce, timestamp: timestamp, callback: callback, verifier: verifier,
      includeVersion: includeVersion, bodyHash: bodyHash)
  }
}
