internal import CryptoPrimitives
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with the S256 method: a random `code_verifier` kept
/// by the client, and its `code_challenge`, `BASE64URL(SHA-256(verifier))`, sent with the
/// authorization request. The token endpoint gives the access token only to whoever shows the
/// verifier, so an intercepted authorization code is useless. X requires it
/// (`fundamentals/authentication/oauth-2-0/authorization-code.mdx`).
///
/// ```swift
/// let pkce = try PKCE()             // a fresh 64-character verifier
/// pkce.challenge                    // 43 characters of base64url, no padding
/// ```
public struct PKCE: Sendable, CustomStringConvertible {
  /// The secret the client keeps until it exchanges the code: 43 to 128 characters of
  /// `A-Z a-z 0-9 - . _ ~` (RFC 7636 section 4.1).
  public let verifier: String
  /// `BASE64URL(SHA-256(ASCII(verifier)))` without padding (section 4.2).
  public let challenge: String
  /// Always `S256`: the `plain` method would send the secret itself.
  public var method: String { "S256" }

  /// The characters a verifier may use (RFC 7636 section 4.1: unreserved characters).
  public static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// A new verifier of `length` characters (43 to 128; 64 by default) drawn from the system's
  /// cryptographically secure generator. Throws ``OAuth2Error/cryptoFailure(operation:reason:)``
  /// if the challenge cannot be computed (an OpenSSL that cannot hash): a login must stop there,
  /// never send a challenge no verifier matches.
  public init(length: Int = 64) throws(OAuth2Error) {
    precondition((43...128).contains(length), "RFC 7636: a code verifier has 43 to 128 characters, not \(length)")
    var generator = SystemRandomNumberGenerator()
    let verifier = String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator)! })
    try self.init(verifier: verifier)
  }

  /// The challenge of a given verifier, checked against RFC 7636's length and alphabet. Throws
  /// ``OAuth2Error/invalidConfiguration(_:)`` for a malformed verifier and
  /// ``OAuth2Error/cryptoFailure(operation:reason:)`` if SHA-256 fails.
  public init(verifier: String) throws(OAuth2Error) {
    try self.init(verifier: verifier) { text throws(CryptoError) in try DigestAlgorithm.sha256.digest(of: Array(text.utf8)) }
  }

  /// ``init(verifier:)`` with the SHA-256 given: the seam through which tests show that a
  /// failing digest is an error, not an empty challenge.
  init(verifier: String, sha256: (String) throws(CryptoError) -> [UInt8]) throws(OAuth2Error) {
    guard (43...128).contains(verifier.count), verifier.allSatisfy({ Self.alphabet.contains($0) }) else {
      throw .invalidConfiguration(
        "a PKCE code verifier has 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 section 4.1); this one has \(verifier.count)")
    }
    let digest: [UInt8]
    do {
      digest = try sha256(verifier)
    } catch {
      switch error {
      case .libraryFailure(let operation, let reason): throw .cryptoFailure(operation: operation, reason: reason)
      default: throw .cryptoFailure(operation: "digest", reason: "\(error)")
      }
    }
    // SHA-256 is 32 bytes: 43 characters of base64url. Anything else is not a challenge.
    guard digest.count == 32 else {
      throw .cryptoFailure(operation: "digest", reason: "SHA-256 gave \(digest.count) bytes, not 32")
    }
    self.verifier = verifier
    challenge = Self.base64URL(Data(digest).base64EncodedString())
  }

  /// Hides the verifier.
  public var description: String { "PKCE(S256, challenge: \(challenge))" }

  /// Base64 to base64url without padding (RFC 4648 section 5).
  static func base64URL(_ base64: String) -> String {
    String(
      base64.compactMap { character -> Character? in
        switch character {
        case "+": "-"
        case "/": "_"
        case "=": nil
        default: character
        }
      })
  }
}
