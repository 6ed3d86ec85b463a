import PercentEncoding

/// The protocol parameters one signer sends with every request (consumer key, token,
/// callback, verifier, signature method, version), encoded once.
///
/// Invariants: the values live in one allocation made in `init` and freed in `deinit`, never
/// written after `init`; the pairs point into it (names point to static strings), so they are
/// valid while this object is alive: users keep it alive with `withExtendedLifetime`.
final class ProtocolConstants: @unchecked Sendable {
  let callback: EncodedPair?
  let consumerKey: EncodedPair
  let signatureMethod: EncodedPair
  let token: EncodedPair?
  let verifier: EncodedPair?
  let version: EncodedPair?
  /// The realm as the header quotes it.
  let quotedRealm: String?
  private let storage: UnsafeMutablePointer<UInt8>

  init(consumer: Credentials, token: Credentials?, configuration: OAuthSigner.Configuration) {
    let values: [(ProtocolParameterName, String?)] = [
      (.callback, configuration.callback),
      (.consumerKey, consumer.key),
      (.signatureMethod, configuration.signatureMethod.rawValue),
      // Token credentials with an empty key sign with their secret but send no oauth_token.
      (.token, token.flatMap { $0.key.isEmpty ? nil : $0.key }),
      (.verifier, configuration.verifier),
      (.version, configuration.includeVersion ? "1.0" : nil),
    ]
    let capacity = values.reduce(0) { $0 + 3 * ($1.1?.utf8.count ?? 0) }
    storage = .allocate(capacity: max(capacity, 1))
    var out = ByteWriter(storage, capacity: capacity)
    var pairs: [EncodedPair?] = []
    for (name, value) in values {
      guard var value else {
        pairs.append(nil)
        continue
      }
      let start = out.count
      value.withUTF8 { out.appendEncoded($0) }
      pairs.append(EncodedPair(name: name.utf8, value: UnsafeBufferPointer(start: storage + start, count: out.count - start)))
    }
    callback = pairs[0]
    consumerKey = pairs[1]!
    signatureMethod = pairs[2]!
    self.token = pairs[3]
    verifier = pairs[4]
    version = pairs[5]
    quotedRealm = configuration.realm.map(OAuthAuthorizationHeader.quote)
  }

  deinit { storage.deallocate() }
}
