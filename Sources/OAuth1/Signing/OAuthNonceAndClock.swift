import Foundation

/// Default values for `oauth_nonce` and `oauth_timestamp`.
///
/// The nonce is 192 bits from the system CSPRNG (OpenSSL's `RAND_bytes`) written in the
/// URL-safe base64 alphabet without padding: 32 characters that need no encoding anywhere.
///
/// ```swift
/// let nonce = try OAuthNonce.random()  // e.g. "q3Ad0-4bVJ2lWq9gN7yZ_1u8xQm5JcS2"
/// ```
public enum OAuthNonce {
  /// A fresh random nonce.
  public static func random() throws(OAuthError) -> String {
    let bytes = try Crypto.randomBytes(count: 24)
    return String(OAuthBase64.encode(bytes).map { character -> Character in
      switch character {
      case "+": return "-"
      case "/": return "_"
      default: return character
      }
    }.filter { $0 != "=" })
  }
}

/// Where the signer reads the time, so that tests and replays can fix it.
///
/// ```swift
/// struct FixedClock: OAuthClock { func secondsSince1970() -> Int64 { 1318622958 } }
/// ```
public protocol OAuthClock: Sendable {
  /// Whole seconds since 1970-01-01T00:00:00Z.
  func secondsSince1970() -> Int64
}

/// The system's wall clock.
public struct SystemClock: OAuthClock {
  public init() {}
  public func secondsSince1970() -> Int64 {
    Int64(Date().timeIntervalSince1970.rounded(.down))
  }
}
