import Foundation
import Locking
import OAuth1

/// Nonces a test can predict: `prefix-1`, `prefix-2`, …, never the same twice. Safe to share.
///
/// ```swift
/// let signer = try OAuthSigner(consumer: consumer, configuration: .init(nonceSource: CountingNonces()))
/// ```
public final class CountingNonces: OAuthNonceSource, Sendable {
  private let count = Locked(0)
  /// What every nonce starts with, before `-` and the count; `nonce` by default.
  public let prefix: String

  /// Creates a source whose first nonce is `prefix-1`; each source counts from 1, so two with the same prefix repeat each other.
  public init(prefix: String = "nonce") {
    self.prefix = prefix
  }

  public func nextNonce() -> String {
    let number = count.withLock {
      $0 += 1
      return $0
    }
    return "\(prefix)-\(number)"
  }
}

/// The same nonce every time: a sender that reuses nonces, to test that a provider refuses the
/// replay. Never use it to sign real requests.
public struct RepeatedNonce: OAuthNonceSource {
  /// The `oauth_nonce` every request gets.
  public let nonce: String

  /// Creates a source that returns `nonce` for every request.
  public init(_ nonce: String) {
    self.nonce = nonce
  }

  public func nextNonce() -> String { nonce }
}
