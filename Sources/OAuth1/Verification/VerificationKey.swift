import Foundation
import Locking

/// What a verifier checks a signature with: for HMAC and PLAINTEXT the signer's own
/// ``SignatureKey`` (the verifier computes the signature as a signer would), for RSA the
/// consumer's public key.
enum VerificationKey {
  case shared(SignatureKey)
  case rsa(RSAPublicKey, OAuthDigestAlgorithm)

  /// Whether `signature` (decoded, as received) is the signature of `baseString`, compared in
  /// constant time; our own signature is written to `scratch`.
  func accepts(_ signature: String, for baseString: borrowing ByteWriter, scratch: inout ByteWriter) -> Bool {
    switch self {
    case .shared(let key):
      // Our signature as a signer writes it (base64, or the key) against the received text:
      // no decoding of the input.
      guard let ours = try? key.appendSignature(of: baseString, encoded: false, to: &scratch) else { return false }
      return Crypto.constantTimeEquals(scratch, ours, signature)
    case .rsa(let publicKey, let digest):
      guard let bytes = OAuthBase64.decode(signature) else { return false }
      return (try? publicKey.isValidSignature(bytes, for: baseString.bytes(0..<baseString.count), digest: digest)) == true
    }
  }
}

/// Prepared HMAC keys by (consumer, token), so that a verifier hashes a key's pad states once
/// and not on every request. An entry is used only while the secrets it was made from are
/// still the ones the credential lookup returns (a rotated secret makes a new entry); they are
/// kept as ``WipedSecrets`` (bytes compared in constant time, wiped when the entry goes), never
/// as `String`s. Bounded: past `capacity` entries the cache starts again empty. Safe to use
/// from many tasks at once.
final class PreparedKeyCache: Sendable {
  private struct Entry {
    let secrets: WipedSecrets
    let key: PreparedHMACKey
  }
  private struct Name: Hashable {
    let digest: OAuthDigestAlgorithm
    let consumerKey: String
    let token: String?
  }

  private let entries = Locked<[Name: Entry]>([:])
  let capacity: Int

  init(capacity: Int = 4096) {
    self.capacity = capacity
  }

  /// The prepared key for these credentials and digest, made on first use and again whenever
  /// the secrets differ from the ones the cached key was made from.
  func key(_ digest: OAuthDigestAlgorithm, consumerKey: String, consumerSecret: String, token: String?, tokenSecret: String?) -> PreparedHMACKey {
    let name = Name(digest: digest, consumerKey: consumerKey, token: token)
    if let entry = entries.withLock({ $0[name] }), entry.secrets.equals(consumerSecret: consumerSecret, tokenSecret: tokenSecret) {
      return entry.key
    }
    let key = SignatureKey.preparedHMAC(digest, consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    let secrets = WipedSecrets(consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    entries.withLock { entries in
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[name] = Entry(secrets: secrets, key: key)
    }
    return key
  }
}
