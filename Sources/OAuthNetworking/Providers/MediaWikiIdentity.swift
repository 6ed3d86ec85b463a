import Foundation
import OAuth1

/// Who the user is, from MediaWiki's `Special:OAuth/identify`: a JWT signed HS256 with the
/// consumer secret, checked before a field of it is believed.
///
/// Why: the identify answer is the only proof of who approved the application, and a JWT is
/// only as good as its checks. ``validated(_:consumerKey:consumerSecret:issuer:nonce:now:leeway:)``
/// checks the signature (in constant time), the issuer (the wiki's canonical server), the
/// audience (your consumer key), the nonce you sent with the identify request, and the time
/// (`iat` not in the future, `exp` not past), each with a typed error.
///
/// ```swift
/// let nonce = try OAuthNonce.random()
/// // GET https://meta.wikimedia.org/w/index.php?title=Special:OAuth/identify, signed with the
/// // access token and with this oauth_nonce
/// let identity = try MediaWikiIdentity.validated(
///   jwtText, consumerKey: consumer.key, consumerSecret: consumer.secret,
///   issuer: "https://meta.wikimedia.org", nonce: nonce)
/// print(identity.username)
/// ```
public struct MediaWikiIdentity: Sendable, Hashable {
  /// The user's name on the wiki (`username`).
  public let username: String
  /// The user's central id (`sub`).
  public let subject: String
  /// The user's groups (`groups`), empty when absent.
  public let groups: [String]
  /// The claims as decoded (strings, numbers, booleans, arrays and objects), for the rest
  /// (`editcount`, `confirmed_email`, `blocked`, `rights`...).
  public let claims: [String: JSONValue]

  /// A JSON value of a claim.
  public enum JSONValue: Sendable, Hashable, Decodable {
    /// A JSON string.
    case string(String)
    /// A JSON number (`iat`, `exp`, `editcount`).
    case number(Double)
    /// `true` or `false` (`confirmed_email`, `blocked`).
    case bool(Bool)
    /// A JSON array (`groups`, `rights`).
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])
    /// `null`.
    case null

    /// Decodes any JSON value: a boolean before a number, so that `true` stays a boolean.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if container.decodeNil() {
        self = .null
      } else if let bool = try? container.decode(Bool.self) {
        self = .bool(bool)
      } else if let number = try? container.decode(Double.self) {
        self = .number(number)
      } else if let string = try? container.decode(String.self) {
        self = .string(string)
      } else if let array = try? container.decode([JSONValue].self) {
        self = .array(array)
      } else {
        self = .object(try container.decode([String: JSONValue].self))
      }
    }
  }

  /// Why an identify JWT was not accepted. None carries the consumer secret.
  public enum ValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts of JSON, or not HS256.
    case malformed(String)
    /// The HS256 signature does not match the consumer secret.
    case signatureInvalid
    /// `iss` is not the wiki's server.
    case wrongIssuer(expected: String, found: String?)
    /// `aud` is not the consumer key.
    case wrongAudience(expected: String, found: String?)
    /// `nonce` is not the one sent with the identify request (a replayed answer).
    case wrongNonce
    /// `exp` is past (`expired`), or `iat` is in the future, beyond the leeway.
    case outsideValidity(issuedAt: Int64?, expires: Int64?, now: Int64)

    public var description: String {
      switch self {
      case .malformed(let reason): return "The identify answer is not a MediaWiki JWT: \(reason)."
      case .signatureInvalid: return "The identify JWT's HS256 signature does not match the consumer secret: it was not issued for this consumer."
      case .wrongIssuer(let expected, let found):
        return "The identify JWT was issued by \(found.map { "\"\($0)\"" } ?? "nobody"), not \(expected): give the wiki's canonical server."
      case .wrongAudience(let expected, let found):
        return "The identify JWT is for the consumer \(found.map { "\"\($0)\"" } ?? "(none)"), not \(expected)."
      case .wrongNonce: return "The identify JWT's nonce is not the one sent with the request: a replayed or substituted answer."
      case .outsideValidity(let issuedAt, let expires, let now):
        return
          "The identify JWT is outside its validity (iat \(issuedAt.map(String.init) ?? "-"), exp \(expires.map(String.init) ?? "-"), now \(now)): check the clock, then ask again."
      }
    }
  }

  /// The identity in `jwt`, once its signature, issuer, audience, nonce and time are checked.
  /// - Parameters:
  ///   - jwt: The body of `Special:OAuth/identify`'s answer.
  ///   - consumerKey: Your consumer key, the JWT's `aud`.
  ///   - consumerSecret: Your consumer secret, the HS256 key.
  ///   - issuer: The wiki's canonical server, as its `iss` (`https://meta.wikimedia.org`).
  ///   - nonce: The `oauth_nonce` of the identify request.
  ///   - now: The time to check `iat` and `exp` against; the system's by default.
  ///   - leeway: Seconds of clock difference tolerated; 60 by default.
  public static func validated(
    _ jwt: String, consumerKey: String, consumerSecret: String, issuer: String, nonce: String, now: Date = Date(), leeway: Int64 = 60
  ) throws(ValidationError) -> MediaWikiIdentity {
    let parts = jwt.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let headerBytes = base64URL(parts[0]), let payloadBytes = base64URL(parts[1]), let signature = base64URL(parts[2])
    else { throw .malformed("not three base64url parts") }
    guard case .object(let header)? = json(headerBytes), header["alg"] == .string("HS256") else {
      throw .malformed("its header does not say alg HS256")
    }
    let signed = String(parts[0]) + "." + String(parts[1])
    guard let expected = try? OAuthSignature.digest(baseString: signed, method: .hmacSHA256, signingKey: consumerSecret),
      constantTimeEquals(expected, signature)
    else { throw .signatureInvalid }
    guard case .object(let claims)? = json(payloadBytes) else { throw .malformed("its payload is not a JSON object") }
    let found = { (name: String) -> String? in if case .string(let value)? = claims[name] { value } else { nil } }
    guard found("iss") == issuer else { throw .wrongIssuer(expected: issuer, found: found("iss")) }
    guard found("aud") == consumerKey else { throw .wrongAudience(expected: consumerKey, found: found("aud")) }
    guard let sentNonce = found("nonce"), constantTimeEquals(Array(sentNonce.utf8), Array(nonce.utf8)) else { throw .wrongNonce }
    let seconds = { (name: String) -> Int64? in if case .number(let value)? = claims[name] { Int64(exactly: value.rounded(.down)) } else { nil } }
    let time = Int64(now.timeIntervalSince1970)
    let issuedAt = seconds("iat"), expires = seconds("exp")
    guard let issuedAt, let expires, issuedAt <= time + leeway, expires >= time - leeway else {
      throw .outsideValidity(issuedAt: issuedAt, expires: expires, now: time)
    }
    let groups: [String] =
      if case .array(let values)? = claims["groups"] { values.compactMap { if case .string(let g) = $0 { g } else { nil } } } else { [] }
    return MediaWikiIdentity(username: found("username") ?? "", subject: found("sub") ?? "", groups: groups, claims: claims)
  }

  /// The bytes of base64url text without padding, `nil` for anything else.
  static func base64URL(_ text: Substring) -> [UInt8]? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    guard !base64.contains("=") else { return nil }
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64).map(Array.init)
  }

  /// The JSON in `bytes` as a ``JSONValue``; `nil` for anything that is not JSON.
  static func json(_ bytes: [UInt8]) -> JSONValue? {
    try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
  }

  /// Whether `a` and `b` are equal, in a time that does not depend on where they differ.
  static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
  }
}
