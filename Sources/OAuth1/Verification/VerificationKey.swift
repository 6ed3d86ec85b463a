import Foundation

/// What a verifier checks a signature with: for HMAC and PLAINTEXT the signer's own
/// ``SignatureKey`` (the verifier computes the signature as a signer would), for RSA the
/// consumer's public key.
enum VerificationKey {
  case shared(SignatureKey)
  case rsa(RSAPublicKey, OAuthDigestAlgorithm)

  /// Whether `signature` (decoded, as received) is the signature of `baseString`, compared in
  /// constant time.
  func accepts(_ signature: String, for baseString: UnsafeBufferPointer<UInt8>) -> Bool {
    var signature = signature
    switch self {
    case .shared(let key):
      // Our signature as a signer writes it (base64, or the key) against the received text:
      // no decoding of the input.
      let room = key.room
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
        var ours = ByteWriter(scratch.baseAddress!, capacity: room)
        guard (try? key.appendSignature(of: baseString, encoded: false, to: &ours)) != nil else { return false }
        return signature.withUTF8 { Crypto.constantTimeEquals(ours.written, $0) }
      }
    case .rsa(let publicKey, let digest):
      guard let bytes = OAuthBase64.decode(signature) else { return false }
      return (try? publicKey.isValidSignature(bytes, for: baseString, digest: digest)) == true
    }
  }
}

/// Prepared HMAC keys by (consumer, token), so that a verifier hashes a key's pad states once
/// and not on every request. An entry is used only while the secrets it was made from are
/// still the ones the credential lookup returns (a rotated secret makes a new entry); they are
/// kept as ``WipedSecrets`` (bytes compared in constant time, wiped when the entry goes), never
/// as `String`s. Bounded: past `capacity` entries the cache starts again empty. Safe to use
/// from many tasks at once.
final class PreparedKeyCache: @unchecked Sendable {
  private struct Entry {
    let secrets: WipedSecrets
    let key: PreparedHMACKey
  }
  private struct Name: Hashable {
    let digest: OAuthDigestAlgorithm
    let consumerKey: String
    let token: String?
  }

  private let lock = NSLock()
  private var entries: [Name: Entry] = [:]
  let capacity: Int

  init(capacity: Int = 4096) {
    self.capacity = capacity
  }

  /// The prepared key for these credentials and digest, made on first use and again whenever
  /// the secrets differ from the ones the cached key was made from.
  func key(_ digest: OAuthDigestAlgorithm, consumerKey: String, consumerSecret: String, token: String?, tokenSecret: String?) -> PreparedHMACKey {
    let name = Name(digest: digest, consumerKey: consumerKey, token: token)
    if let entry = lock.withLock({ entries[name] }), entry.secrets.equals(consumerSecret: consumerSecret, tokenSecret: tokenSecret) {
      return entry.key
    }
    let key = SignatureKey.preparedHMAC(digest, consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    let secrets = WipedSecrets(consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    lock.withLock {
      if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
      entries[name] = Entry(secrets: secrets, key: key)
    }
    return key
  }
}
